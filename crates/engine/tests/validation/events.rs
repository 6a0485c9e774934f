//! Timed events (SPEC 7): set_priority, update_share, borrow limits over time (SPEC 2).

use super::*;

/// The events' error rows (see [`Row`]).
pub(super) const ERROR_ROWS: &[Row] = &[
    // SPEC 7 events: set_priority names a job that exists.
    (
        "SPEC 7: set_priority for an unknown job",
        |v| v["events"][0]["set_priority"]["job"] = json!("ghost"),
        "events[0].set_priority.job",
        "unknown job \"ghost\"",
    ),
    // SPEC 7 events: set_priority's priority is 0..=9999.
    (
        "SPEC 2/7: set_priority priority <= 9999",
        |v| v["events"][0]["set_priority"]["priority"] = json!(10000),
        "events[0].set_priority.priority",
        "must be <= 9999",
    ),
    // SPEC 2/7 (the AWS model; the Kueue model takes any 32-bit integer, see
    // kueue_validation.rs): set_priority's priority >= 0.
    (
        "SPEC 2/7: set_priority priority >= 0",
        |v| v["events"][0]["set_priority"]["priority"] = json!(-1),
        "events[0].set_priority.priority",
        "must be >= 0",
    ),
    // SPEC 7 events: update_share names a share that exists.
    (
        "SPEC 7: update_share for an unknown share",
        |v| {
            v["events"] =
                json!([{"at_s": 10, "update_share": {"share": "zzz", "state": "DISABLED"}}])
        },
        "events[0].update_share.share",
        "unknown share \"zzz\"",
    ),
    // SPEC 2 + 7: update_share's borrow_limit only while the share is LEND_AND_BORROW.
    (
        "SPEC 2/7: update_share borrow_limit on a LEND share",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "b", "borrow_limit": 50}}]),
        "events[0].update_share.borrow_limit",
        "LEND_AND_BORROW",
    ),
    // SPEC 2 + 7: the share's strategy is the one at the event's time, not in file order: an
    // update that switches it to LEND_AND_BORROW *later* does not allow an earlier borrow_limit.
    (
        "SPEC 2/7: update_share borrow_limit before the switch to LEND_AND_BORROW",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "b", "strategy": "LEND_AND_BORROW"}},
                {"at_s": 5, "update_share": {"share": "b", "borrow_limit": 50}}
            ])
        },
        "events[1].update_share.borrow_limit",
        "LEND_AND_BORROW",
    ),
    // SPEC 2 + 7: switching a LEND_AND_BORROW share to LEND makes a later borrow_limit invalid.
    (
        "SPEC 2/7: update_share borrow_limit after a switch to RESERVE",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "a", "strategy": "RESERVE"}},
                {"at_s": 20, "update_share": {"share": "a", "borrow_limit": 50}}
            ])
        },
        "events[1].update_share.borrow_limit",
        "LEND_AND_BORROW",
    ),
    // SPEC 7 events: update_share borrow_limit >= -1.
    (
        "SPEC 2/7: update_share borrow_limit >= -1",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "borrow_limit": -7}}]),
        "events[0].update_share.borrow_limit",
        "must be >= -1",
    ),
    // SPEC 7 events: update_share limits follow the 1..=5 rule too.
    (
        "SPEC 2/7: update_share limits 1..=5",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "limits": {}}}]),
        "events[0].update_share.limits",
        "must have 1 to 5",
    ),
    // SPEC 7 events: update_share strategy values.
    (
        "SPEC 2/7: update_share strategy values",
        |v| {
            v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "strategy": "SHARE"}}])
        },
        "events[0].update_share.strategy",
        "\"LEND_AND_BORROW\"",
    ),
    // SPEC 7 events: an event has exactly one action (both).
    (
        "SPEC 7: event with both actions",
        |v| v["events"][0]["update_share"] = json!({"share": "a", "state": "DISABLED"}),
        "events[0]",
        "not both",
    ),
    // SPEC 7 events: an event has exactly one action (neither).
    (
        "SPEC 7: event with neither action",
        |v| v["events"] = json!([{"at_s": 10}]),
        "events[0]",
        "must have one of set_priority or update_share",
    ),
    // SPEC 7 events: at_s is a time >= 0.
    (
        "SPEC 7: event at_s >= 0",
        |v| v["events"][0]["at_s"] = json!(-3),
        "events[0].at_s",
        "must be >= 0",
    ),
];

/// The events' valid rows (see [`ValidRow`]).
pub(super) const VALID_ROWS: &[ValidRow] = &[
    (
        "SPEC 2/7: update_share borrow_limit after an earlier switch to LEND_AND_BORROW",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "b", "strategy": "LEND_AND_BORROW"}},
                {"at_s": 20, "update_share": {"share": "b", "borrow_limit": 50}}
            ])
        },
    ),
    (
        "SPEC 2/7: update_share borrow_limit after an earlier switch, listed first in the file",
        |v| {
            v["events"] = json!([
                {"at_s": 20, "update_share": {"share": "b", "borrow_limit": 50}},
                {"at_s": 10, "update_share": {"share": "b", "strategy": "LEND_AND_BORROW"}}
            ])
        },
    ),
    (
        "SPEC 2/7: update_share switching to LEND_AND_BORROW and setting borrow_limit at once",
        |v| {
            v["events"] = json!([
                {"at_s": 10, "update_share": {"share": "c", "strategy": "LEND_AND_BORROW",
                                              "borrow_limit": 0}}
            ])
        },
    ),
    (
        "SPEC 2/7: update_share borrow_limit on a LEND_AND_BORROW share",
        |v| v["events"] = json!([{"at_s": 10, "update_share": {"share": "a", "borrow_limit": -1}}]),
    ),
    ("SPEC 7: set_priority of a generated job", |v| {
        v["workloads"] = json!([{"share": "b", "count": 2, "arrival": {"at_s": [0, 10]},
                                 "instance_type": T, "work_s": 60}]);
        v["events"] = json!([{"at_s": 5, "set_priority": {"job": "b-2", "priority": 7}}]);
    }),
];

// SPEC 2/7: an update_share borrow_limit problem names its own event in the file even when an
// earlier event is invalid (and so left out): the index must not shift to another event.
#[test]
fn event_paths_do_not_shift_after_an_invalid_event() {
    let e = errors_of(&with(|v| {
        v["events"] = json!([
            {"at_s": 5, "set_priority": {"job": "a1", "priority": 1}},
            {"at_s": 10, "update_share": {"share": "b", "state": "PAUSED"}},
            {"at_s": 20, "update_share": {"share": "b", "borrow_limit": 50}}
        ])
    }));
    assert!(
        has(&e, "events[1].update_share.state", "PAUSED"),
        "{}",
        show(&e)
    );
    assert!(
        has(&e, "events[2].update_share.borrow_limit", "LEND_AND_BORROW"),
        "{}",
        show(&e)
    );
    assert_eq!(e.len(), 2, "{}", show(&e));
}
