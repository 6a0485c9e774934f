//! Unit tests of the timeline: the Gantt from the log, lanes, labels, the panel's words.

use super::*;
use crate::charts::span_s;
use quotalab_engine::digest::{DigestLimits, EventKind};

const AWS: &str = include_str!("../../../www/presets/aws-walkthrough.json");

const MANY: &str = r#"{
      "format": "quotalab/v1", "name": "many", "seed": 3,
      "capacity": {"ml.g5.xlarge": 8},
      "shares": [
        {"name": "a", "limits": {"ml.g5.xlarge": 4}, "strategy": "LEND_AND_BORROW"},
        {"name": "b", "limits": {"ml.g5.xlarge": 4}, "strategy": "LEND_AND_BORROW"}
      ],
      "jobs": [],
      "workloads": [
        {"share": "a", "count": 300, "arrival": {"uniform": [0, 36000]}, "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 900}}},
        {"share": "b", "count": 300, "arrival": {"uniform": [0, 36000]}, "instance_type": "ml.g5.xlarge", "work_s": {"exponential": {"mean": 900}}}
      ]
    }"#;

fn run(text: &str) -> Digest {
    quotalab_engine::run_digest(text, DigestLimits::default()).expect("a valid scenario")
}

/// The walkthrough's digest keeping its first `events` events only (issue #30's capped log).
fn aws_capped(events: usize) -> Digest {
    let limits = DigestLimits {
        max_events: events,
        ..DigestLimits::default()
    };
    quotalab_engine::run_digest(AWS, limits).unwrap()
}

#[test]
fn gantt_has_the_walkthrough_steps() {
    let d = run(AWS);
    let g = gantt(&d, &d.segments());
    let id = |j: u32| d.jobs[j as usize].id.as_str();
    let marks: Vec<(&str, f64, MarkKind)> =
        g.marks.iter().map(|m| (id(m.job), m.t, m.kind)).collect();
    assert_eq!(
        marks,
        [
            ("bg-p2", 60.0, MarkKind::Reclaim),
            ("bg-p1", 120.0, MarkKind::Priority),
            ("bg-p3", 120.0, MarkKind::InShare),
        ]
    );
    // bg-p2 runs 0-60, waits 60-420 (requeued, then waiting for lendable capacity: one
    // waiting stretch), runs again 420-720.
    let p2: Vec<(Seg, f64, f64)> = g
        .segments
        .iter()
        .filter(|s| id(s.job) == "bg-p2")
        .map(|s| (s.kind, s.t0, s.t1))
        .collect();
    assert_eq!(
        p2,
        [
            (Seg::Running, 0.0, 60.0),
            (Seg::Waiting, 60.0, 420.0),
            (Seg::Running, 420.0, 720.0)
        ]
    );
    // bg-p1 waits from its submission to its start at 120: admission does not split it.
    let p1_wait: Vec<(f64, f64)> = g
        .segments
        .iter()
        .filter(|s| id(s.job) == "bg-p1" && s.kind == Seg::Waiting)
        .map(|s| (s.t0, s.t1))
        .collect();
    assert_eq!(p1_wait, [(0.0, 120.0)]);
    let l = layout(&d, &g);
    assert!(l.per_job);
    assert_eq!(l.row_labels, ["bg-p3", "bg-p2", "bg-p1", "med-1"]);
    assert_eq!(
        l.marks
            .iter()
            .map(|m| m.3.clone().unwrap())
            .collect::<Vec<_>>(),
        [
            "reclaimed by med-1",
            "priority → 4",
            "preempted by bg-p1 (in-share)"
        ]
    );
    assert!(l.note.is_empty());
}

#[test]
fn large_runs_are_packed_into_lanes() {
    let d = run(MANY);
    assert_eq!(d.jobs.len(), 600);
    let g = gantt(&d, &d.segments());
    let l = layout(&d, &g);
    assert!(!l.per_job);
    assert_eq!(l.groups.len(), 2, "lanes grouped by share");
    assert_eq!(l.groups.iter().map(|g| g.2).sum::<usize>(), l.lanes);
    assert!(l.lanes >= 2 && l.lanes < 100, "{} lanes", l.lanes);
    assert!(l.bars.len() <= MAX_BARS);
    assert!(l.bars.iter().all(|b| b.kind != Seg::Waiting));
    assert!(l.note.starts_with("600 jobs: "), "{}", l.note);
    assert!(l.note.contains("packed into"), "{}", l.note);
    // No two bars of one lane overlap, and a lane holds one share's jobs.
    let mut by_lane = vec![Vec::new(); l.lanes];
    for b in &l.bars {
        by_lane[b.lane].push((b.t0, b.t1));
        let (s, first, n) = l.groups[usize::from(b.share)];
        assert_eq!(s, b.share);
        assert!((first..first + n).contains(&b.lane));
    }
    for v in &mut by_lane {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(v.windows(2).all(|w| w[0].1 <= w[1].0 + 1e-6));
    }
}

// Issue #34: the Kueue model's note counts Workloads grouped by ClusterQueue.
#[test]
fn large_kueue_runs_say_workloads_by_clusterqueue() {
    let aws: serde_json::Value = serde_json::from_str(MANY).unwrap();
    let kueue = quotalab_engine::translate::aws_to_kueue(&aws)
        .doc
        .to_string();
    let d = run(&kueue);
    let l = layout(&d, &gantt(&d, &d.segments()));
    assert!(
        l.note.starts_with("600 Workloads: ") && l.note.contains("grouped by ClusterQueue"),
        "{}",
        l.note
    );
    let d = run(MANY);
    let l = layout(&d, &gantt(&d, &d.segments()));
    assert!(l.note.contains("grouped by share"), "{}", l.note);
}

/// The Gantt as the page read it straight from the log before the digest had
/// segments: a waiting bar from each submission, requeue or preemption of a SCHEDULED
/// job, start and running bars, a grace bar from each preemption of a holding job.
fn direct_gantt(d: &Digest) -> Vec<Segment> {
    let n = d.jobs.len();
    let mut open: Vec<Option<(Seg, f64)>> = vec![None; n];
    let mut out = Vec::new();
    let close = |open: &mut Vec<Option<(Seg, f64)>>, out: &mut Vec<Segment>, j: usize, t| {
        if let Some((kind, t0)) = open[j].take() {
            if t > t0 {
                out.push(Segment {
                    job: j as u32,
                    kind,
                    t0,
                    t1: t,
                });
            }
        }
    };
    for e in &d.events {
        let Some(j) = e.job.map(|j| j as usize) else {
            continue;
        };
        let kind = match e.kind {
            EventKind::Submit | EventKind::Requeue => Seg::Waiting,
            EventKind::Start => Seg::Starting,
            EventKind::Running => Seg::Running,
            EventKind::Preempt => {
                if matches!(open[j], Some((Seg::Starting | Seg::Running, _))) {
                    Seg::Grace
                } else {
                    Seg::Waiting
                }
            }
            EventKind::Succeed | EventKind::Fail | EventKind::Reject => {
                close(&mut open, &mut out, j, e.t_s);
                continue;
            }
            _ => continue,
        };
        close(&mut open, &mut out, j, e.t_s);
        open[j] = Some((kind, e.t_s));
    }
    for j in 0..n {
        close(&mut open, &mut out, j, d.end_s);
    }
    out
}

// The segments replay gives the same bars, in the same order, as reading the log
// directly, on the page's small presets (read from their files: the page's preset list
// is the io layer's, which the results layer does not import), the engine's grace, retry
// and share-update scenarios and a run large enough to be packed.
#[test]
fn gantt_segments_match_a_direct_reading_of_the_log() {
    let texts = [
        AWS,
        include_str!("../../../www/presets/partition-vs-pool-partitioned.json"),
        include_str!("../../../www/presets/partition-vs-pool-pooled.json"),
        include_str!("../../../www/presets/research-org.json"),
        MANY,
        include_str!("../../../crates/engine/tests/golden/reclaim-grace-checkpoint.json"),
        include_str!("../../../crates/engine/tests/golden/retries-fail.json"),
        include_str!("../../../crates/engine/tests/golden/update-share-and-disable.json"),
        include_str!("../../../crates/engine/tests/golden/horizon-startup.json"),
    ];
    for text in texts {
        let d = run(text);
        let g = gantt(&d, &d.segments());
        assert!(!g.segments.is_empty(), "{}", d.name);
        assert_eq!(g.segments, direct_gantt(&d), "{}", d.name);
    }
}

// One time format per scale: the panel's time reads in the unit of the run's time axes.
// The Philly sample spans days, so "State at 4 d 7 h", not "103 h 19 min" (the clock's).
#[test]
fn the_panels_time_uses_the_axis_unit() {
    let philly = run(include_str!("../../../www/presets/philly-sample.json"));
    let axis = crate::charts::TimeAxis::for_span(span_s(&philly));
    assert_eq!(axis.unit, "d");
    assert_eq!(time_scale(&philly), axis.scale);
    let t = 103.0 * 3600.0 + 19.0 * 60.0;
    assert_eq!(state_title(&philly, t), "State at 4 d 7 h");
    assert_eq!(axis.label(4.0), "4 d");
    // The walkthrough (minutes) reads as before.
    let aws = run(AWS);
    assert_eq!(crate::charts::TimeAxis::for_span(span_s(&aws)).unit, "min");
    assert_eq!(state_title(&aws, 90.0), "State at 1 min 30 s");
    assert_eq!(
        crate::charts::cursor_text(720.0, span_s(&aws)),
        "t = 12 min"
    );
}

#[test]
fn counts_per_share_at_90_s() {
    let d = run(AWS);
    let at = d.state_at(90.0);
    let counts = share_counts(&d, &at);
    let total: [u64; 4] = counts.iter().fold([0; 4], |mut a, c| {
        (0..4).for_each(|i| a[i] += c[i]);
        a
    });
    assert_eq!(total[0] as usize, at.holding.len());
    assert_eq!(total[2] as usize, at.scheduled.len());
    assert_eq!(total[3] as usize, at.waiting.len());
    assert_eq!(counts.len(), d.shares.len());
}

#[test]
fn mark_labels_name_the_preemptor_or_the_priority() {
    let d = run(AWS);
    let mark = |kind, by, priority| Mark {
        job: 0,
        t: 0.0,
        kind,
        by,
        priority,
    };
    assert_eq!(
        mark_label(&d, &mark(MarkKind::Reclaim, Some(3), None)),
        "reclaimed by med-1"
    );
    assert_eq!(
        mark_label(&d, &mark(MarkKind::InShare, None, None)),
        "preempted by ? (in-share)"
    );
    assert_eq!(
        mark_label(&d, &mark(MarkKind::Priority, None, Some(7))),
        "priority → 7"
    );
}

/// The Gantt's segments come in the order of their closing events, stably (each event's in
/// the order listed, the open ones last), as a stable sort by event puts them.
#[test]
fn segments_are_ordered_by_closing_event_stably() {
    use quotalab_report::timeline::{by_closing_event, Seg, Segment};
    let events = 50;
    let closed: Vec<(u32, Segment)> = (0..400u32)
        .map(|i| {
            let e = match i % 7 {
                0 => u32::MAX,
                _ => i.wrapping_mul(2_654_435_761) % events as u32,
            };
            let s = Segment {
                job: i,
                kind: Seg::Running,
                t0: f64::from(i),
                t1: f64::from(i) + 1.0,
            };
            (e, s)
        })
        .collect();
    let mut want = closed.clone();
    want.sort_by_key(|c| c.0);
    let want: Vec<Segment> = want.into_iter().map(|(_, s)| s).collect();
    assert_eq!(by_closing_event(&closed, events), want);
    assert_eq!(by_closing_event(&[], 0), Vec::<Segment>::new());
}

// Issue #30: the Gantt and the "state at t" panel read one replay of a result's log; a new
// result (even an equal one) is replayed anew.
#[test]
fn one_replay_of_the_log_per_result() {
    let _owner = {
        let o = leptos::prelude::Owner::new();
        o.set();
        o
    };
    let stretches = Stretches::new();
    let d = Arc::new(run(AWS));
    let first = stretches.of(&d);
    assert!(Arc::ptr_eq(&first, &stretches.of(&d)), "replayed twice");
    assert_eq!(*first, d.segments());
    let next = Arc::new((*d).clone());
    let again = stretches.of(&next);
    assert!(!Arc::ptr_eq(&first, &again), "an older result's stretches");
    assert_eq!(*again, *first);
}

// Issue #30: a capped log's Gantt stops where the log does, and the timeline says so.
#[test]
fn a_capped_logs_gantt_stops_where_the_log_does() {
    let d = aws_capped(10);
    let until = d.events_until_s.expect("capped");
    let g = gantt(&d, &d.segments());
    assert!(!g.segments.is_empty());
    assert!(g.segments.iter().all(|s| s.t1 <= until), "{:?}", g.segments);
    assert!(g.segments.iter().any(|s| s.t1 == until));
    let note = log_cap_note(&d).unwrap();
    assert!(note.contains("first 10 of"), "{note}");
    assert!(log_cap_note(&run(AWS)).is_none());
}

// Issue #30: the whole run's note says what is drawn: every event, or (a run longer than the
// engine worker lays out, such as the Kueue Philly trace's 4,134,298 events) its first ones,
// up to where they stop; and who reads the kept events only.
#[test]
fn the_whole_run_s_note_says_where_its_bars_stop() {
    let d = aws_capped(10);
    let all = run(AWS);
    let mut w = quotalab_report::timeline::whole_run_of(&all, &all.segments(), Some(1));
    assert_eq!((w.events, w.event_count), (34, 34));
    let note = whole_run_note(&d, &w, true).unwrap();
    assert!(note.starts_with("The bars and markers are the whole run's, laid out by an engine worker, which tells the cursor's card"), "{note}");
    assert!(
        note.contains("first 10 of 34 events")
            && note.contains(": the event log and job histories read those"),
        "{note}"
    );
    let alone = whole_run_note(&d, &w, false).unwrap();
    assert!(alone.contains(": the cursor's card, the “state at t” panel, the event log and job histories read those"), "{alone}");
    w.layout.until_s = Some(120.0);
    w.events = 20;
    let part = whole_run_note(&d, &w, true).unwrap();
    assert!(part.starts_with("The bars and markers are the run's first 20 of 34 events, up to 2 min, laid out by an engine worker (nothing is drawn after)"), "{part}");
    assert!(
        whole_run_note(&all, &w, true).is_none(),
        "the page has every event"
    );
}
