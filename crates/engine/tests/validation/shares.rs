//! Quota shares (SPEC 2, SPEC 7): count, limits, names, strategy, borrow limit, state.

use super::*;

/// The quota shares' error rows (see [`Row`]).
pub(super) const ERROR_ROWS: &[Row] = &[
    // SPEC 2 queue: at most 20 quota shares.
    (
        "SPEC 2: at most 20 quota shares (21)",
        |v| {
            v["shares"] = shares_named(21);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "at most 20",
    ),
    // SPEC 2 quota share: 1..=5 limits (0 limits).
    (
        "SPEC 2: 1..=5 limits (0)",
        |v| v["shares"][2]["limits"] = json!({}),
        "shares[2].limits",
        "must have 1 to 5",
    ),
    // SPEC 2 quota share: 1..=5 limits (6 limits).
    (
        "SPEC 2: 1..=5 limits (6)",
        |v| v["shares"][2]["limits"] = limits_of(6),
        "shares[2].limits",
        "(has 6)",
    ),
    // SPEC 2 quota share: names unique.
    (
        "SPEC 2: share names unique",
        |v| v["shares"][2]["name"] = json!("a"),
        "shares[2].name",
        "duplicate share name \"a\"",
    ),
    // SPEC 2 quota share: names <= 128 chars.
    (
        "SPEC 2: share name <= 128 chars (129)",
        |v| v["shares"][2]["name"] = json!("x".repeat(129)),
        "shares[2].name",
        "at most 128 characters",
    ),
    // SPEC 2 quota share: names <= 128 chars, counted in characters, not bytes.
    (
        "SPEC 2: share name <= 128 chars (129 two-byte chars)",
        |v| v["shares"][2]["name"] = json!("é".repeat(129)),
        "shares[2].name",
        "at most 128 characters",
    ),
    // SPEC 2 quota share: borrow_limit only with LEND_AND_BORROW (LEND).
    (
        "SPEC 2: borrow_limit only with LEND_AND_BORROW (LEND)",
        |v| v["shares"][1]["borrow_limit"] = json!(50),
        "shares[1].borrow_limit",
        "only allowed with strategy LEND_AND_BORROW",
    ),
    // SPEC 2 quota share: borrow_limit only with LEND_AND_BORROW (RESERVE).
    (
        "SPEC 2: borrow_limit only with LEND_AND_BORROW (RESERVE)",
        |v| v["shares"][2]["borrow_limit"] = json!(-1),
        "shares[2].borrow_limit",
        "only allowed with strategy LEND_AND_BORROW",
    ),
    // SPEC 2 quota share: borrow_limit >= -1.
    (
        "SPEC 2: borrow_limit >= -1",
        |v| v["shares"][0]["borrow_limit"] = json!(-2),
        "shares[0].borrow_limit",
        "must be >= -1",
    ),
    // SPEC 2 quota share: borrow_limit is a whole percent.
    (
        "SPEC 2: borrow_limit is a whole number",
        |v| v["shares"][0]["borrow_limit"] = json!(50.5),
        "shares[0].borrow_limit",
        "whole number",
    ),
    // SPEC 2 quota share: borrow_limit is a number, not a string.
    (
        "SPEC 2: borrow_limit is a number",
        |v| v["shares"][0]["borrow_limit"] = json!("50"),
        "shares[0].borrow_limit",
        "whole number",
    ),
    // SPEC 2 quota share: strategy is RESERVE, LEND or LEND_AND_BORROW.
    (
        "SPEC 2: strategy values",
        |v| v["shares"][1]["strategy"] = json!("BORROW"),
        "shares[1].strategy",
        "\"RESERVE\", \"LEND\" or \"LEND_AND_BORROW\"",
    ),
    // SPEC 2 quota share: strategy is case-sensitive.
    (
        "SPEC 2: strategy values are upper case",
        |v| v["shares"][1]["strategy"] = json!("lend"),
        "shares[1].strategy",
        "\"LEND_AND_BORROW\"",
    ),
    // SPEC 2 quota share: state is ENABLED or DISABLED.
    (
        "SPEC 2: state values",
        |v| v["shares"][1]["state"] = json!("PAUSED"),
        "shares[1].state",
        "\"ENABLED\" or \"DISABLED\"",
    ),
    // SPEC 2 quota share: a limit is a count of instances >= 0.
    (
        "SPEC 2: limits are instance counts >= 0",
        |v| v["shares"][1]["limits"][T] = json!(-1),
        "shares[1].limits.ml.g5.xlarge",
        "must be >= 0",
    ),
    // SPEC 2 quota share: in_share_preemption is a bool.
    (
        "SPEC 2: in_share_preemption is a bool",
        |v| v["shares"][0]["in_share_preemption"] = json!("yes"),
        "shares[0].in_share_preemption",
        "true or false",
    ),
    // SPEC 7: an unknown instance type is a validation error (in a share's limits).
    (
        "SPEC 7: unknown instance type (limits)",
        |v| v["shares"][2]["limits"] = json!({"ml.nope.xlarge": 1}),
        "shares[2].limits.ml.nope.xlarge",
        "unknown instance type \"ml.nope.xlarge\"",
    ),
    // SPEC 2: the Kueue model's 1,000-share bound is not the AWS model's (25 shares).
    (
        "SPEC 2: at most 20 quota shares (25, a number the Kueue model allows)",
        |v| {
            v["shares"] = shares_named(25);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "at most 20 quota shares per queue (has 25)",
    ),
    // SPEC 7: a scenario needs shares.
    (
        "SPEC 7: missing shares",
        |v| {
            let m = v.as_object_mut().unwrap();
            m.remove("shares");
            m.remove("jobs");
            m.remove("events");
        },
        "shares",
        "is required",
    ),
    // SPEC 2: at least one quota share.
    (
        "SPEC 2: at least one share",
        |v| {
            v["shares"] = json!([]);
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "at least one",
    ),
    // SPEC 7: shares is an array.
    (
        "SPEC 7: shares is an array",
        |v| {
            v["shares"] = json!({"a": {}});
            v["jobs"] = json!([]);
            v["events"] = json!([]);
        },
        "shares",
        "must be an array, not an object",
    ),
];

/// The quota shares' valid rows (see [`ValidRow`]).
pub(super) const VALID_ROWS: &[ValidRow] = &[
    ("SPEC 2: exactly 20 shares", |v| {
        v["shares"] = shares_named(20);
        v["jobs"] = json!([]);
        v["events"] = json!([]);
        v["capacity"] = json!({T: 20});
    }),
    ("SPEC 2: exactly 5 limits", |v| {
        v["shares"][2]["limits"] = limits_of(5);
        v["capacity"] = json!({});
    }),
    ("SPEC 2: exactly 1 limit, of 0 instances", |v| {
        v["shares"][2]["limits"] = json!({T: 0})
    }),
    ("SPEC 2: a 128-character name", |v| {
        v["shares"][2]["name"] = json!("x".repeat(128))
    }),
    ("SPEC 2: a 128-character name of two-byte chars", |v| {
        v["shares"][2]["name"] = json!("é".repeat(128))
    }),
    (
        "SPEC 2: borrow_limit -1 (unlimited) with LEND_AND_BORROW",
        |v| v["shares"][0]["borrow_limit"] = json!(-1),
    ),
    ("SPEC 2: borrow_limit 0 with LEND_AND_BORROW", |v| {
        v["shares"][0]["borrow_limit"] = json!(0)
    }),
    ("SPEC 2: borrow_limit null means the default", |v| {
        v["shares"][1]["borrow_limit"] = json!(null)
    }),
    ("SPEC 2: borrow_limit as a whole float (100.0)", |v| {
        v["shares"][0]["borrow_limit"] = json!(100.0)
    }),
    ("SPEC 2: state DISABLED", |v| {
        v["shares"][1]["state"] = json!("DISABLED")
    }),
];
