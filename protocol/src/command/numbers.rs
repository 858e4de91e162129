//! The numbers of `level`'s arguments: integers with a bound, and real seconds.

use super::{CommandError, MAX_SECONDS};
use crate::lexer::excerpt;

/// Parses a non-negative integer no larger than `max`.
pub(super) fn parse_integer(arg: &'static str, value: &str, max: u64) -> Result<u64, CommandError> {
    let text = value.trim();
    let digits = text.strip_prefix('+').unwrap_or(text);
    let negative = text.starts_with('-');
    let body = if negative {
        text.get(1..).unwrap_or_default()
    } else {
        digits
    };
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::NotAnInteger {
            arg,
            value: excerpt(value),
        });
    }
    if negative {
        // "-0" is zero, not a negative number.
        return if body.bytes().all(|b| b == b'0') {
            Ok(0)
        } else {
            Err(CommandError::NegativeInteger {
                arg,
                value: excerpt(value),
            })
        };
    }
    match body.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(CommandError::IntegerTooLarge {
            arg,
            value: excerpt(value),
            max,
        }),
    }
}

/// Parses a real number of seconds; negatives become 0.
pub(super) fn parse_seconds(arg: &'static str, value: &str) -> Result<f64, CommandError> {
    let text = value.trim();
    let seconds: f64 = text.parse().map_err(|_| CommandError::NotANumber {
        arg,
        value: excerpt(value),
    })?;
    if !seconds.is_finite() {
        return Err(CommandError::NotFinite {
            arg,
            value: excerpt(value),
        });
    }
    if seconds > MAX_SECONDS {
        return Err(CommandError::TooManySeconds {
            arg,
            value: excerpt(value),
        });
    }
    // Negative times (and -0) become 0.
    Ok(if seconds <= 0.0 { 0.0 } else { seconds })
}
