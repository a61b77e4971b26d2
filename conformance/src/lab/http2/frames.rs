//! The few raw HTTP/2 frames the lab writes itself (RFC 9113 §4.1, §6.8).

/// Frame type of GOAWAY.
const GOAWAY: u8 = 0x7;

/// Length of a GOAWAY payload without debug data: last-stream-id and error
/// code, four bytes each.
const GOAWAY_PAYLOAD_LEN: usize = 8;

/// Length of every frame header.
const FRAME_HEADER_LEN: usize = 9;

/// A GOAWAY frame (on stream 0) with `last_stream_id` and error `code`.
pub(crate) fn go_away(
    last_stream_id: u32,
    code: u32,
) -> [u8; FRAME_HEADER_LEN + GOAWAY_PAYLOAD_LEN] {
    let mut frame = [0; FRAME_HEADER_LEN + GOAWAY_PAYLOAD_LEN];
    let len = u32::try_from(GOAWAY_PAYLOAD_LEN).unwrap_or(8).to_be_bytes();
    frame[0..3].copy_from_slice(&len[1..4]);
    frame[3] = GOAWAY;
    // flags (frame[4]) and stream id (frame[5..9]) stay zero.
    frame[9..13].copy_from_slice(&(last_stream_id & 0x7fff_ffff).to_be_bytes());
    frame[13..17].copy_from_slice(&code.to_be_bytes());
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_go_away_frame_is_laid_out_as_rfc_9113_says() {
        assert_eq!(
            go_away(3, 0),
            [0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0]
        );
        assert_eq!(go_away(u32::MAX, 2)[9], 0x7f);
    }
}
