//! The few raw HTTP/2 frames the lab writes itself (RFC 9113 §4.1, §6.8).

/// Frame type of GOAWAY.
const GOAWAY: u8 = 0x7;

/// Frame type of DATA.
const DATA: u8 = 0x0;

/// Frame type of HEADERS.
const HEADERS: u8 = 0x1;

/// Frame type of RST_STREAM.
const RST_STREAM: u8 = 0x3;

/// HEADERS flag: this frame holds the whole header block.
const END_HEADERS: u8 = 0x4;

/// `:status: 200` as an HPACK indexed field: static table entry 8 (RFC 7541
/// Appendix A), so the peer's dynamic table is left untouched.
const STATUS_200_INDEXED: u8 = 0x80 | 8;

/// Error code `REFUSED_STREAM` (RFC 9113 §7).
const REFUSED_STREAM: u32 = 0x7;

/// Body bytes sent after the head and before the `REFUSED_STREAM` of
/// [`head_then_refused_stream`].
const BODY_BEFORE_REFUSAL: &[u8] = b"partial";

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

fn frame(kind: u8, flags: u8, stream_id: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len())
        .expect("lab frames are small")
        .to_be_bytes();
    let mut out = Vec::with_capacity(FRAME_HEADER_LEN + payload.len());
    out.extend_from_slice(&len[1..4]);
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&(stream_id & 0x7fff_ffff).to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// A `200` response head on `stream_id` with the body still to come, a few
/// body bytes, then RST_STREAM(`REFUSED_STREAM`): a refusal that arrives
/// after the head.
pub(crate) fn head_then_refused_stream(stream_id: u32) -> Vec<u8> {
    let mut out = frame(HEADERS, END_HEADERS, stream_id, &[STATUS_200_INDEXED]);
    out.extend(frame(DATA, 0, stream_id, BODY_BEFORE_REFUSAL));
    out.extend(frame(
        RST_STREAM,
        0,
        stream_id,
        &REFUSED_STREAM.to_be_bytes(),
    ));
    out
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

    #[test]
    fn a_head_then_refusal_is_headers_data_and_rst_stream_in_that_order() {
        let bytes = head_then_refused_stream(3);
        // HEADERS: length 1, END_HEADERS, stream 3, `:status: 200` indexed.
        assert_eq!(&bytes[..10], &[0, 0, 1, 1, 4, 0, 0, 0, 3, 0x88]);
        // DATA: length 7, no flags, stream 3.
        assert_eq!(&bytes[10..19], &[0, 0, 7, 0, 0, 0, 0, 0, 3]);
        assert_eq!(&bytes[19..26], b"partial");
        // RST_STREAM: length 4, stream 3, REFUSED_STREAM.
        assert_eq!(&bytes[26..], &[0, 0, 4, 3, 0, 0, 0, 0, 3, 0, 0, 0, 7]);
    }
}
