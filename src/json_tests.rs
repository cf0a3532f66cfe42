//! The reader against serde_json's own: the same values, and the same errors at the same places.

use super::*;
use proptest::prelude::*;

/// serde_json's reading of `text`, as this reader reports it.
fn theirs(text: &str) -> Result<Value, String> {
    serde_json::from_str::<Value>(text).map_err(|e| e.to_string())
}

fn ours(text: &str) -> Result<Value, String> {
    from_str(text).map_err(|e| e.to_string())
}

/// Values equal, numbers with a fraction or an exponent within a few units in the last place
/// (serde_json's default reading of those is not always correctly rounded; this reader's is,
/// which `written_values_read_back` checks).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x.is_sign_negative() == y.is_sign_negative() && x.to_bits().abs_diff(y.to_bits()) <= 4
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

fn check(text: &str) {
    match (ours(text), theirs(text)) {
        (Ok(a), Ok(b)) => assert!(same(&a, &b), "{text:?}: {a:?} against serde_json's {b:?}"),
        (a, b) => assert_eq!(a, b, "{text:?}"),
    }
}

#[test]
fn values_as_serde_json_reads_them() {
    for text in [
        "null",
        " true ",
        "false",
        "0",
        "-0",
        "12",
        "-12",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1.5",
        "-2.5e3",
        "1E+2",
        "1e-400",
        "123456789012345678901234567890",
        "\"\"",
        "\"plain\"",
        "\"caf\u{e9} \u{1F600}\"",
        r#""\" \\ \/ \b \f \n \r \t""#,
        r#""\u0041\u00e9\ud83d\ude00\u2028""#,
        "[]",
        "[1, [2, [3]], {}]",
        "{}",
        r#"{"b": 1, "a": [true, null], "c": {"d": "e"}}"#,
        r#"{"k": 1, "other": 2, "k": 3}"#,
        "\r\n\t[ 1 ,\n 2 ]\n",
    ] {
        check(text);
    }
    // Order kept, a repeated key in its first place with its last value.
    let v = from_str(r#"{"z": 1, "a": 2, "z": 3}"#).unwrap_or_default();
    assert_eq!(v.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>()), Some(vec!["z".into(), "a".into()]));
    assert_eq!(v["z"], 3);
    assert!(from_str("-0").ok().and_then(|v| v.as_f64()).is_some_and(|f| f == 0.0 && f.is_sign_negative()));
    assert_eq!(from_str("-9223372036854775808").ok().and_then(|v| v.as_i64()), Some(i64::MIN));
}

#[test]
fn errors_as_serde_json_reports_them() {
    for text in [
        "",
        "   ",
        "x",
        "nul",
        "nulx",
        "tru",
        "[",
        "[1",
        "[1,",
        "[1,]",
        "[1 2]",
        "{",
        "{\"a\"",
        "{\"a\":",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "{\"a\":1 \"b\":2}",
        "{1:2}",
        "\"abc",
        "\"a\u{1}b\"",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\u12G4\"",
        "\"\\ud800\"",
        "\"\\ud800x\"",
        "\"\\ud800\\n\"",
        "\"\\ud800\\u0041\"",
        "\"\\udc00\"",
        "01",
        "-",
        "-x",
        "1.",
        "1.x",
        "1e",
        "1e+",
        "1ex",
        ".5",
        "+1",
        "1e400",
        "-1e400",
        "1 2",
        "{} x",
        "[1]\n\n  ]",
        "[\n1,\n\n]",
        "[[[[[[",
        "{\"a\":[",
        "[\"\\",
        "[tx",
    ] {
        check(text);
    }
}

#[test]
fn nesting_is_bounded() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(from_str(&deep(MAX_DEPTH)).is_ok());
    check(&deep(MAX_DEPTH));
    check(&deep(MAX_DEPTH + 1));
    let err = from_str(&deep(100_000)).err();
    assert_eq!(err.map(|e| e.message), Some("recursion limit exceeded"));
}

#[test]
fn bytes_that_are_not_utf8_are_an_error() {
    assert!(from_slice(b"\"\xff\"").is_err());
    assert_eq!(from_slice(br#"{"a": [1]}"#).ok(), from_str(r#"{"a": [1]}"#).ok());
}

/// Any value: numbers of every kind, text of any characters, nesting.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        ".*".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((".*", inner), 0..8).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    /// What serde_json writes (floats as their shortest text) reads back as the very value, and
    /// as serde_json reads it.
    #[test]
    fn written_values_read_back(v in any_value()) {
        for text in [serde_json::to_string(&v), serde_json::to_string_pretty(&v)] {
            let text = text.unwrap_or_default();
            prop_assert_eq!(from_str(&text).ok(), Some(v.clone()));
            check(&text);
        }
    }

    #[test]
    fn any_text_reads_as_serde_json_reads_it(text in r#"[ \[\]{}:,"\\a-fu0-9.eE+\-tnrl\n]{0,24}"#) {
        check(&text);
    }
}
