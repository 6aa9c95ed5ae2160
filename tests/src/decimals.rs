//! A corpus of decimal number texts for differential tests of JSON number handling: each is a valid
//! JSON number, and Rust's `str::parse::<f64>` (correctly rounded) is the oracle its double is held to.
//!
//! The cases that catch a parser that is not correctly rounded are the ones built here: exact midpoints
//! between two neighbouring doubles (written out in full, up to ~770 digits for subnormals) and texts a
//! hair above or below them, integers just past 2^53 with a `.0`, subnormals, the ends of the range, long
//! mantissas and every exponent spelling. Deterministic: the same seed gives the same corpus.
//!
//! Shared by the suite (`json_exact_numbers`) and the CLI's tests (which include this file by path).

/// At least this many texts come out of [`corpus`].
pub const MIN_CORPUS: usize = 100_000;

/// The corpus: JSON number texts, each with the double `str::parse::<f64>` reads from it. Texts whose
/// value overflows to infinity are left out (JSON has no infinity; they are tested separately).
pub fn corpus() -> Vec<(String, f64)> {
    let mut random = SplitMix(0x5eed_a2a0_2026_0013);
    let mut texts = Vec::with_capacity(MIN_CORPUS + 10_000);
    fixed_cases(&mut texts);
    near_two_pow_53(&mut texts);
    // Halfway between 0 and the smallest subnormal (reads as 0), and between the largest subnormal and
    // the smallest normal double.
    midpoint_cases(&mut texts, 0.0, &mut random);
    midpoint_cases(&mut texts, f64::from_bits((1 << 52) - 1), &mut random);
    while texts.len() < MIN_CORPUS + 8_000 {
        // Long texts are the slow ones to read; most midpoints are of doubles of moderate magnitude
        // (up to ~80 digits), a few span the whole range (up to ~770).
        match random.below(32) {
            0..=11 => {
                let value = random.finite_double();
                shortest_and_longer(&mut texts, value, &mut random);
            }
            12..=21 => {
                let value = random.moderate_double();
                midpoint_cases(&mut texts, value, &mut random);
            }
            22 | 23 => {
                let value = random.finite_double();
                midpoint_cases(&mut texts, value, &mut random);
            }
            24 => {
                let subnormal = f64::from_bits(random.next() % (1 << 52));
                midpoint_cases(&mut texts, subnormal, &mut random);
            }
            25 | 26 => texts.push(long_mantissa(&mut random)),
            27..=29 => texts.push(integer_forms(&mut random)),
            _ => texts.push(exponent_forms(&mut random)),
        }
    }
    texts
        .into_iter()
        .filter_map(|text| {
            let value: f64 = text.parse().expect("the corpus holds only valid numbers");
            value.is_finite().then_some((text, value))
        })
        .collect()
}

/// Texts of values beyond the largest double, which a correctly rounded reader turns into infinity and
/// a JSON reader must therefore refuse.
pub fn overflowing() -> Vec<String> {
    let (digits, exponent) = midpoint_digits(f64::MAX);
    assert_eq!(exponent, 0);
    vec![
        "1e309".to_owned(),
        "-1e309".to_owned(),
        "1.7976931348623159e308".to_owned(),
        // Exactly halfway between the largest double and 2^1024: rounds to even, i.e. up, to infinity.
        digits,
    ]
}

fn fixed_cases(texts: &mut Vec<String>) {
    for text in [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "0e0",
        "-0E-0",
        "0.000e+12",
        "1",
        "-1",
        "1.0",
        "1.5",
        "0.1",
        "0.2",
        "0.3",
        "1e0",
        "1E1",
        "1e+1",
        "1e-1",
        "5e-324",
        "-5e-324",
        "4.9e-324",
        "4.940656458412465441765687928682213723651e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "2.2250738585072014e-308",
        "1e308",
        "1.7976931348623157e308",
        "-1.7976931348623157e308",
        "1.7976931348623158e308",
        "1e-308",
        "1e-307",
        "1e-320",
        "1e-323",
        "1e-324",
        "9007199254740991.0",
        "9007199254740993.0",
        "9007199254740993.000000000000000000000001",
        "9007199254740992.9999999999999999999",
        "18446744073709551615",
        "18446744073709551616",
        "18446744073709551616.0",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "0.1000000000000000055511151231257827021181583404541015625",
        "0.1000000000000000055511151231257827021181583404541015624",
        "3.141592653589793238462643383279502884197",
    ] {
        texts.push(text.to_owned());
    }
}

/// Every integer from 2^53 - 64 to 2^53 + 64 (and the same around 2^54 and 2^63), written as an integer,
/// with `.0`, with `.5`, and with an exponent.
fn near_two_pow_53(texts: &mut Vec<String>) {
    for base in [1u128 << 53, 1 << 54, 1 << 63, 1 << 64] {
        for offset in 0..=128u128 {
            let n = base - 64 + offset;
            for sign in ["", "-"] {
                texts.push(format!("{sign}{n}"));
                texts.push(format!("{sign}{n}.0"));
                texts.push(format!("{sign}{n}.5"));
                texts.push(format!("{sign}{n}.000e0"));
                texts.push(format!("{sign}{n}0e-1"));
            }
        }
    }
}

/// The shortest text of `value`, and longer ones: 17 and 25 significant digits (exact digits of the
/// double, which must read back as the same double), in plain and exponent notation.
fn shortest_and_longer(texts: &mut Vec<String>, value: f64, random: &mut SplitMix) {
    texts.push(format!("{value:e}"));
    texts.push(format!("{value:.16e}"));
    texts.push(format!("{value:.24E}"));
    if (1e-5..1e21).contains(&value.abs()) {
        let decimals = random.below(30) as usize;
        texts.push(format!("{value:.decimals$}"));
    }
}

/// The exact midpoint between `value` and the next double up, and texts just above and below it.
fn midpoint_cases(texts: &mut Vec<String>, value: f64, random: &mut SplitMix) {
    let value = value.abs();
    if value.is_nan() || value.is_infinite() || value == f64::MAX {
        return;
    }
    let (digits, exponent) = midpoint_digits(value);
    let sign = if random.below(2) == 0 { "" } else { "-" };
    let scientific = |digits: &str| {
        let (first, rest) = digits.split_at(1);
        let exponent = exponent + digits.len() as i64 - 1;
        let rest = if rest.is_empty() { "0" } else { rest };
        format!("{sign}{first}.{rest}e{exponent}")
    };
    texts.push(scientific(&digits));
    // A hair above: one more digit.
    texts.push(scientific(&format!("{digits}1")));
    // A hair below: the last non-zero digit one less, then nines.
    if let Some(below) = decrement(&digits) {
        texts.push(scientific(&format!("{below}9")));
    }
}

/// The decimal digits `d` and exponent `q` with midpoint = d × 10^q, exactly.
fn midpoint_digits(value: f64) -> (String, i64) {
    let bits = value.to_bits();
    let biased = (bits >> 52) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    // value = mantissa × 2^exponent; midpoint = (2·mantissa + 1) × 2^(exponent - 1).
    let mut number = Big::from(2 * mantissa + 1);
    let power = exponent - 1;
    if power >= 0 {
        number.multiply_by_power(2, power as u32);
        (number.to_decimal(), 0)
    } else {
        // × 2^-k = × 5^k / 10^k.
        number.multiply_by_power(5, (-power) as u32);
        (number.to_decimal(), power)
    }
}

/// `digits` minus one in the last place, if it stays positive with no leading zero.
fn decrement(digits: &str) -> Option<String> {
    let mut bytes = digits.as_bytes().to_vec();
    for byte in bytes.iter_mut().rev() {
        if *byte == b'0' {
            *byte = b'9';
        } else {
            *byte -= 1;
            break;
        }
    }
    (bytes[0] != b'0').then(|| String::from_utf8(bytes).unwrap())
}

/// 20 to 300 random digits with a decimal point somewhere and maybe an exponent.
fn long_mantissa(random: &mut SplitMix) -> String {
    let length = 20 + random.below(280) as usize;
    let mut digits: String = (0..length)
        .map(|_| char::from(b'0' + random.below(10) as u8))
        .collect();
    digits.replace_range(0..1, &(1 + random.below(9)).to_string());
    let point = random.below(length as u64) as usize;
    let mut text = format!("{}.{}", &digits[..=point], &digits[point + 1..]);
    if text.ends_with('.') {
        text.push('0');
    }
    if random.below(2) == 0 {
        text.push_str(&format!(
            "e{}",
            random.below(700) as i64 - 350 - point as i64
        ));
    }
    text
}

/// An integer of 1 to 40 digits, plain or with `.0`, `.00`.
fn integer_forms(random: &mut SplitMix) -> String {
    let length = 1 + random.below(40) as usize;
    let mut text: String = (0..length)
        .map(|_| char::from(b'0' + random.below(10) as u8))
        .collect();
    let trimmed = text.trim_start_matches('0');
    text = if trimmed.is_empty() {
        "0".to_owned()
    } else {
        trimmed.to_owned()
    };
    let sign = if random.below(2) == 0 { "" } else { "-" };
    let suffix = [".0", ".00", "", ".0e0", "e0"][random.below(5) as usize];
    format!("{sign}{text}{suffix}")
}

/// A short mantissa with each exponent spelling across the whole range.
fn exponent_forms(random: &mut SplitMix) -> String {
    let mantissa = random.below(1_000_000);
    let scale = random.below(7) as usize;
    let whole = mantissa.to_string();
    let mantissa_text = if scale > 0 && scale < whole.len() {
        format!(
            "{}.{}",
            &whole[..whole.len() - scale],
            &whole[whole.len() - scale..]
        )
    } else {
        whole
    };
    let exponent = random.below(660) as i64 - 340;
    let marker = ["e", "E"][random.below(2) as usize];
    let plus = if exponent >= 0 && random.below(2) == 0 {
        "+"
    } else {
        ""
    };
    format!("{mantissa_text}{marker}{plus}{exponent}")
}

/// A tiny unsigned big integer in base 10^9, enough for exact decimal expansions of doubles.
struct Big(Vec<u64>);

const LIMB: u64 = 1_000_000_000;

impl Big {
    fn from(value: u64) -> Self {
        Self(vec![
            value % LIMB,
            (value / LIMB) % LIMB,
            value / LIMB / LIMB,
        ])
    }

    fn multiply(&mut self, factor: u64) {
        let mut carry = 0;
        for limb in &mut self.0 {
            let product = *limb * factor + carry;
            *limb = product % LIMB;
            carry = product / LIMB;
        }
        while carry > 0 {
            self.0.push(carry % LIMB);
            carry /= LIMB;
        }
    }

    /// × base^exponent, for base 2 or 5, in steps that keep every product inside a u64.
    fn multiply_by_power(&mut self, base: u64, mut exponent: u32) {
        let step = if base == 2 { 29 } else { 12 };
        while exponent > 0 {
            let now = exponent.min(step);
            self.multiply(base.pow(now));
            exponent -= now;
        }
    }

    fn to_decimal(&self) -> String {
        let mut limbs = self.0.iter().rev().skip_while(|limb| **limb == 0);
        let mut text = limbs.next().map_or_else(|| "0".to_owned(), u64::to_string);
        for limb in limbs {
            text.push_str(&format!("{limb:09}"));
        }
        text
    }
}

/// SplitMix64: a small, well-mixed deterministic generator.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }

    /// A double with a random mantissa and a binary exponent within ±70.
    fn moderate_double(&mut self) -> f64 {
        let exponent = 1023 - 70 + self.below(141);
        f64::from_bits((exponent << 52) | (self.next() & ((1 << 52) - 1)))
    }

    /// A double with random bits, finite.
    fn finite_double(&mut self) -> f64 {
        loop {
            let value = f64::from_bits(self.next());
            if value.is_finite() {
                return value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn midpoints_are_exact() {
        // 2^53 + 1 is the midpoint of 2^53 and 2^53 + 2.
        assert_eq!(
            midpoint_digits(9_007_199_254_740_992.0),
            ("9007199254740993".to_owned(), 0)
        );
        // Between 1 and 1 + 2^-52: 1 + 2^-53.
        let (digits, exponent) = midpoint_digits(1.0);
        assert_eq!(exponent, -53);
        assert!(
            digits.starts_with("10000000000000001110223024625156"),
            "{digits}"
        );
    }
}
