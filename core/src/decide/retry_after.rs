//! Parsing `Retry-After` (RFC 9110 §10.2.3).
//!
//! The header is either delta-seconds or an HTTP-date. A date in the past
//! means "now". Anything that is neither is ignored (`None`), as the decision
//! rules require: a malformed hint must not turn into a made-up delay.

use std::time::{Duration, SystemTime};

/// A parsed `Retry-After` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryAfter {
    /// Delta-seconds. Values too large for a `Duration` saturate: the server
    /// asked for "very long", which no deadline or ceiling will accept.
    Delay(Duration),
    /// An HTTP-date.
    At(SystemTime),
}

impl RetryAfter {
    /// Parses a header value. Optional whitespace around the value is
    /// allowed; a sign, a fraction or any other text is not.
    ///
    /// ```
    /// use std::time::Duration;
    /// use evident_core::RetryAfter;
    ///
    /// assert_eq!(RetryAfter::parse(b" 120 "), Some(RetryAfter::Delay(Duration::from_secs(120))));
    /// assert!(matches!(RetryAfter::parse(b"Wed, 21 Oct 2015 07:28:00 GMT"), Some(RetryAfter::At(_))));
    /// assert_eq!(RetryAfter::parse(b"-5"), None);
    /// assert_eq!(RetryAfter::parse(b"soon"), None);
    /// ```
    pub fn parse(value: &[u8]) -> Option<RetryAfter> {
        let value = value.trim_ascii();
        if value.is_empty() {
            return None;
        }
        if value.iter().all(u8::is_ascii_digit) {
            return Some(RetryAfter::Delay(parse_delta_seconds(value)));
        }
        let text = std::str::from_utf8(value).ok()?;
        httpdate::parse_http_date(text).ok().map(RetryAfter::At)
    }

    /// Parses the `Retry-After` header of a response, if present and valid.
    pub fn from_headers(headers: &http::HeaderMap) -> Option<RetryAfter> {
        headers
            .get(http::header::RETRY_AFTER)
            .and_then(|v| RetryAfter::parse(v.as_bytes()))
    }

    /// The delay this value asks for, seen from the wall-clock time `now`.
    /// A date in the past means no delay.
    pub fn delay_from(self, now: SystemTime) -> Duration {
        match self {
            RetryAfter::Delay(d) => d,
            RetryAfter::At(at) => at.duration_since(now).unwrap_or(Duration::ZERO),
        }
    }
}

fn parse_delta_seconds(digits: &[u8]) -> Duration {
    let mut secs: u64 = 0;
    for d in digits {
        secs = match secs
            .checked_mul(10)
            .and_then(|s| s.checked_add(u64::from(d - b'0')))
        {
            Some(s) => s,
            None => return Duration::MAX,
        };
    }
    Duration::from_secs(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(n: u64) -> Option<RetryAfter> {
        Some(RetryAfter::Delay(Duration::from_secs(n)))
    }

    #[test]
    fn delta_seconds_parse() {
        assert_eq!(RetryAfter::parse(b"0"), secs(0));
        assert_eq!(RetryAfter::parse(b"1"), secs(1));
        assert_eq!(RetryAfter::parse(b"007"), secs(7));
    }

    #[test]
    fn whitespace_padding_is_allowed() {
        assert_eq!(RetryAfter::parse(b"  30\t"), secs(30));
    }

    #[test]
    fn negative_fractional_and_signed_values_are_ignored() {
        for bad in [&b"-1"[..], b"+1", b"1.5", b"1e3", b"1 2", b"0x10"] {
            assert_eq!(
                RetryAfter::parse(bad),
                None,
                "{:?}",
                std::str::from_utf8(bad)
            );
        }
    }

    #[test]
    fn empty_and_garbage_are_ignored() {
        for bad in [&b""[..], b"   ", b"soon", b"\xff\xfe", b"Wed, 99 Foo 2015"] {
            assert_eq!(RetryAfter::parse(bad), None);
        }
    }

    #[test]
    fn huge_values_saturate_instead_of_wrapping() {
        assert_eq!(
            RetryAfter::parse(b"99999999999999999999999999"),
            Some(RetryAfter::Delay(Duration::MAX))
        );
        assert_eq!(RetryAfter::parse(b"18446744073709551615"), secs(u64::MAX));
    }

    #[test]
    fn http_dates_parse_in_all_three_formats() {
        let expected = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777);
        for text in [
            &b"Sun, 06 Nov 1994 08:49:37 GMT"[..],
            b"Sunday, 06-Nov-94 08:49:37 GMT",
            b"Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(RetryAfter::parse(text), Some(RetryAfter::At(expected)));
        }
    }

    #[test]
    fn a_date_in_the_past_means_now() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let past = RetryAfter::At(now - Duration::from_secs(5));
        assert_eq!(past.delay_from(now), Duration::ZERO);
        let future = RetryAfter::At(now + Duration::from_secs(5));
        assert_eq!(future.delay_from(now), Duration::from_secs(5));
    }

    #[test]
    fn from_headers_reads_the_retry_after_header() {
        let mut h = http::HeaderMap::new();
        assert_eq!(RetryAfter::from_headers(&h), None);
        h.insert(
            http::header::RETRY_AFTER,
            http::HeaderValue::from_static("3"),
        );
        assert_eq!(RetryAfter::from_headers(&h), secs(3));
    }
}
