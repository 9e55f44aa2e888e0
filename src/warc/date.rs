//! `WARC-Date` values: an instant in UTC, read and written in the format
//! WARC uses, and in the HTTP date format WET files also carry.
//!
//! WARC 1.0 dates are `YYYY-MM-DDThh:mm:ssZ` (a profile of ISO 8601,
//! [W3C-DTF](https://www.w3.org/TR/NOTE-datetime)); WARC 1.1 allows a
//! fraction of a second after the seconds. Common Crawl's WET warcinfo
//! also names the extraction date in HTTP's format (`Extracted-Date: Fri,
//! 26 Apr 2024 17:49:19 GMT`, [RFC 9110](https://www.rfc-editor.org/rfc/rfc9110#name-date-time-formats)).
//! The calendar arithmetic is the proleptic Gregorian calendar's
//! days-from-civil conversion, so no date crate is needed.

use std::fmt::{self, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::writer::Version;

/// An instant, to the nanosecond, in UTC: what a `WARC-Date` says.
///
/// ```
/// use htmltok::warc::{Version, WarcDate};
///
/// let date = WarcDate::parse("2024-04-26T17:49:19.250Z").unwrap();
/// assert_eq!(date.to_warc(Version::V1_0), "2024-04-26T17:49:19Z");
/// assert_eq!(date.to_warc(Version::V1_1), "2024-04-26T17:49:19.25Z");
/// assert_eq!(date.to_http(), "Fri, 26 Apr 2024 17:49:19 GMT");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WarcDate {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    seconds: i64,
    nanos: u32,
}

/// The years a date is written for: four digits, as the format has them.
const YEARS: std::ops::RangeInclusive<i64> = 0..=9999;

impl WarcDate {
    /// The current time.
    pub fn now() -> WarcDate {
        WarcDate::from_system_time(SystemTime::now())
    }

    /// The instant `time` (clamped to the years 0–9999).
    pub fn from_system_time(time: SystemTime) -> WarcDate {
        let (seconds, nanos) = match time.duration_since(UNIX_EPOCH) {
            Ok(after) => (
                after.as_secs().min(i64::MAX as u64) as i64,
                after.subsec_nanos(),
            ),
            Err(before) => {
                let before = before.duration();
                let seconds = -(before.as_secs().min(i64::MAX as u64 - 1) as i64);
                match before.subsec_nanos() {
                    0 => (seconds, 0),
                    n => (seconds - 1, 1_000_000_000 - n),
                }
            }
        };
        let lowest = days_from_civil(*YEARS.start(), 1, 1) * 86_400;
        let highest = days_from_civil(*YEARS.end(), 12, 31) * 86_400 + 86_399;
        match seconds {
            s if s < lowest => WarcDate {
                seconds: lowest,
                nanos: 0,
            },
            s if s > highest => WarcDate {
                seconds: highest,
                nanos: 999_999_999,
            },
            _ => WarcDate { seconds, nanos },
        }
    }

    /// The instant as a [`SystemTime`].
    pub fn to_system_time(self) -> SystemTime {
        let nanos = Duration::from_nanos(u64::from(self.nanos));
        if self.seconds >= 0 {
            UNIX_EPOCH + Duration::from_secs(self.seconds as u64) + nanos
        } else {
            UNIX_EPOCH - Duration::from_secs(self.seconds.unsigned_abs()) + nanos
        }
    }

    /// Reads a `WARC-Date`: `YYYY-MM-DDThh:mm:ssZ`, with or without a
    /// fraction of a second (`.` and up to nine digits), as WARC 1.0 and
    /// 1.1 write them. `None` for anything else (another time zone, a
    /// date without its time, an impossible day).
    pub fn parse(value: &str) -> Option<WarcDate> {
        let b = value.trim().as_bytes();
        let (main, rest) = (b.get(..19)?, b.get(19..)?);
        let digits = |range: std::ops::Range<usize>| -> Option<i64> {
            main[range].iter().try_fold(0i64, |n, &d| {
                d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
            })
        };
        let shape = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
        if shape.iter().any(|&(at, c)| main[at] != c) {
            return None;
        }
        let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
        let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
        let valid = (1..=12).contains(&month)
            && (1..=days_in_month(year, month)).contains(&day)
            && hour < 24
            && minute < 60
            && second < 60;
        if !valid {
            return None;
        }
        let nanos = match rest {
            [b'Z'] => 0,
            [b'.', fraction @ .., b'Z'] if (1..=9).contains(&fraction.len()) => {
                let mut nanos = 0u32;
                for (i, &d) in fraction.iter().enumerate() {
                    if !d.is_ascii_digit() {
                        return None;
                    }
                    nanos += u32::from(d - b'0') * 10u32.pow(8 - i as u32);
                }
                nanos
            }
            _ => return None,
        };
        let seconds =
            days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
        Some(WarcDate { seconds, nanos })
    }

    /// The date as `version` writes a `WARC-Date`: to the second for
    /// WARC 1.0 (`2024-04-26T17:49:19Z`); for WARC 1.1, with the fraction
    /// of a second when there is one, without trailing zeros
    /// (`2024-04-26T17:49:19.25Z`).
    pub fn to_warc(self, version: Version) -> String {
        let (year, month, day) = civil_from_days(self.seconds.div_euclid(86_400));
        let time = self.seconds.rem_euclid(86_400);
        let mut out = format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            time / 3600,
            time / 60 % 60,
            time % 60
        );
        if version == Version::V1_1 && self.nanos > 0 {
            let fraction = format!("{:09}", self.nanos);
            let _ = write!(out, ".{}", fraction.trim_end_matches('0'));
        }
        out.push('Z');
        out
    }

    /// The date in HTTP's format, to the second:
    /// `Fri, 26 Apr 2024 17:49:19 GMT`.
    pub fn to_http(self) -> String {
        const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let days = self.seconds.div_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let time = self.seconds.rem_euclid(86_400);
        format!(
            "{}, {day:02} {} {year:04} {:02}:{:02}:{:02} GMT",
            DAYS[days.rem_euclid(7) as usize],
            MONTHS[month as usize - 1],
            time / 3600,
            time / 60 % 60,
            time % 60
        )
    }
}

impl fmt::Display for WarcDate {
    /// The WARC 1.1 form ([`WarcDate::to_warc`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_warc(Version::V1_1))
    }
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`, <https://howardhinnant.github.io/date_algorithms.html>).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day since 1970-01-01 (`civil_from_days`, as above).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        let epoch = WarcDate::from_system_time(UNIX_EPOCH);
        assert_eq!(epoch.to_warc(Version::V1_0), "1970-01-01T00:00:00Z");
        assert_eq!(epoch.to_http(), "Thu, 01 Jan 1970 00:00:00 GMT");
        // Common Crawl's WET warcinfo of CC-MAIN-2024-18: WARC-Date
        // 2024-04-26T17:49:19Z, Extracted-Date Fri, 26 Apr 2024 17:49:19 GMT.
        let cc = UNIX_EPOCH + Duration::from_secs(1_714_153_759);
        let cc = WarcDate::from_system_time(cc);
        assert_eq!(cc.to_warc(Version::V1_0), "2024-04-26T17:49:19Z");
        assert_eq!(cc.to_http(), "Fri, 26 Apr 2024 17:49:19 GMT");
        let leap = WarcDate::parse("2000-02-29T23:59:59Z").unwrap();
        assert_eq!(leap.to_http(), "Tue, 29 Feb 2000 23:59:59 GMT");
        let before = WarcDate::parse("1969-12-31T23:59:59.5Z").unwrap();
        assert_eq!(
            before.to_system_time(),
            UNIX_EPOCH - Duration::from_millis(500)
        );
        assert_eq!(WarcDate::from_system_time(before.to_system_time()), before);
    }

    #[test]
    fn parse_and_format_agree_over_every_day_of_four_centuries() {
        let start = days_from_civil(1800, 1, 1);
        for days in start..start + 146_097 {
            let (year, month, day) = civil_from_days(days);
            assert_eq!(days_from_civil(year, month, day), days);
            let date = WarcDate {
                seconds: days * 86_400 + 45_296,
                nanos: 0,
            };
            let text = date.to_warc(Version::V1_0);
            assert_eq!(text, format!("{year:04}-{month:02}-{day:02}T12:34:56Z"));
            assert_eq!(WarcDate::parse(&text), Some(date));
        }
    }

    #[test]
    fn fractions_and_what_is_not_a_warc_date() {
        let d = WarcDate::parse("2024-05-01T12:00:00.000001Z").unwrap();
        assert_eq!(d.to_warc(Version::V1_1), "2024-05-01T12:00:00.000001Z");
        assert_eq!(d.to_warc(Version::V1_0), "2024-05-01T12:00:00Z");
        let whole = WarcDate::parse("2024-05-01T12:00:00.000Z").unwrap();
        assert_eq!(whole.to_warc(Version::V1_1), "2024-05-01T12:00:00Z");
        for bad in [
            "",
            "2024-05-01",
            "2024-05-01T12:00Z",
            "2024-05-01T12:00:00",
            "2024-05-01T12:00:00+02:00",
            "2024-02-30T12:00:00Z",
            "2023-02-29T12:00:00Z",
            "2024-13-01T12:00:00Z",
            "2024-05-01T24:00:00Z",
            "2024-05-01T12:00:00.Z",
            "2024-05-01T12:00:00.1234567890Z",
            "2024-05-01T12:00:00.1xZ",
            "2024-05-01 12:00:00Z",
            "+024-05-01T12:00:00Z",
        ] {
            assert_eq!(WarcDate::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn system_times_outside_four_digit_years_are_clamped() {
        let far = UNIX_EPOCH + Duration::from_secs(400_000_000_000);
        assert_eq!(
            WarcDate::from_system_time(far).to_warc(Version::V1_0),
            "9999-12-31T23:59:59Z"
        );
    }
}
