package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Scenario is the part of a Quota Lab Kueue-model scenario (`"format": "quotalab/v1"`,
// `"model": "kueue"`, SPEC 7 and 12) that Kueue's scheduler decides on. Jobs must be
// explicit: `kueue-diff oracle FILE` (what `./run kueue-oracle FILE` calls) expands
// generated `workloads` with the engine first.
type Scenario struct {
	Flavors     []string // instance types, in the scenario's order
	Shares      []Share
	Cohorts     []Cohort
	FairSharing []string // Kueue's strategy names; nil without fair sharing
	GraceMs     int64
	HorizonMs   *int64
	Jobs        []Job
}

// Quota is one node's per-flavor quota; a missing key is "not named".
type Quota map[string]int64

type Share struct {
	Name           string
	Cohort         string
	Nominal        Quota
	BorrowingLimit Quota
	LendingLimit   Quota
	StrictFIFO     bool
	Within         string // Kueue's withinClusterQueue: Never, LowerPriority, LowerOrNewerEqualPriority
	Reclaim        string // reclaimWithinCohort: Never, LowerPriority, Any
	BorrowPolicy   string // borrowWithinCohort.policy: Never, LowerPriority
	Threshold      *int32 // borrowWithinCohort.maxPriorityThreshold
	WeightMilli    int64
}

type Cohort struct {
	Name           string
	Parent         string
	Nominal        Quota
	BorrowingLimit Quota
	LendingLimit   Quota
	WeightMilli    int64
}

type Job struct {
	ID        string
	Share     string
	Flavor    string
	Instances int64
	Priority  int32
	SubmitMs  int64
	// RunMs is the time from admission to completion (startup plus work; the reference
	// replays jobs without checkpoints, so a preempted job restarts from the beginning).
	RunMs int64
}

type reader struct{ problems []string }

func (r *reader) fail(path, format string, args ...any) {
	r.problems = append(r.problems, path+": "+fmt.Sprintf(format, args...))
}

func obj(v any) (map[string]any, bool) { m, ok := v.(map[string]any); return m, ok }

func (r *reader) str(m map[string]any, key, path string, def string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return def
	}
	s, ok := v.(string)
	if !ok {
		r.fail(path+"."+key, "must be a string")
		return def
	}
	return s
}

// ms reads seconds as whole milliseconds, like the engine (SPEC 4: times in ms).
func (r *reader) ms(m map[string]any, key, path string, def int64) int64 {
	v, ok := m[key]
	if !ok || v == nil {
		return def
	}
	f, ok := v.(json.Number)
	if !ok {
		r.fail(path+"."+key, "must be a number of seconds")
		return def
	}
	x, err := f.Float64()
	if err != nil || x < 0 || x > 1e12 {
		r.fail(path+"."+key, "must be a number of seconds >= 0")
		return def
	}
	return int64(math.Round(x * 1000))
}

func (r *reader) integer(m map[string]any, key, path string, def int64, lo, hi int64) int64 {
	v, ok := m[key]
	if !ok || v == nil {
		return def
	}
	f, ok := v.(json.Number)
	if !ok {
		r.fail(path+"."+key, "must be a whole number")
		return def
	}
	x, err := f.Int64()
	if err != nil || x < lo || x > hi {
		r.fail(path+"."+key, "must be a whole number from %d to %d", lo, hi)
		return def
	}
	return x
}

func (r *reader) quota(m map[string]any, key, path string, flavors map[string]bool) Quota {
	q := Quota{}
	v, ok := m[key]
	if !ok || v == nil {
		return q
	}
	mm, ok := obj(v)
	if !ok {
		r.fail(path+"."+key, "must be an object of instance type -> count")
		return q
	}
	for name := range mm {
		if !flavors[name] {
			r.fail(path+"."+key+"."+name, "unknown instance type")
			continue
		}
		q[name] = r.integer(mm, name, path+"."+key, 0, 0, 1<<40)
	}
	return q
}

func (r *reader) weight(m map[string]any, path string) int64 {
	v, ok := m["weight"]
	if !ok || v == nil {
		return 1000
	}
	f, ok := v.(json.Number)
	x, err := f.Float64()
	if !ok || err != nil || x < 0 || x > 1e9 {
		r.fail(path+".weight", "must be a number >= 0")
		return 1000
	}
	return int64(math.Round(x * 1000))
}

var withinNames = map[string]string{"never": "Never", "lower_priority": "LowerPriority", "lower_or_newer_equal_priority": "LowerOrNewerEqualPriority"}
var reclaimNames = map[string]string{"never": "Never", "lower_priority": "LowerPriority", "any": "Any"}
var bwcNames = map[string]string{"never": "Never", "lower_priority": "LowerPriority"}
var strategyNames = map[string]string{"less_than_or_equal_to_final_share": "LessThanOrEqualToFinalShare", "less_than_initial_share": "LessThanInitialShare"}

func (r *reader) enum(m map[string]any, key, path string, names map[string]string) string {
	s := r.str(m, key, path, "never")
	if k, ok := names[s]; ok {
		return k
	}
	var known []string
	for n := range names {
		known = append(known, fmt.Sprintf("%q", n))
	}
	sort.Strings(known)
	r.fail(path+"."+key, "must be one of %s (got %q)", strings.Join(known, ", "), s)
	return "Never"
}

// unsupported refuses what the reference does not replay, naming the field.
func (r *reader) unsupported(m map[string]any, path string, keys ...string) {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			r.fail(path+"."+k, "the Kueue reference does not replay %s (Kueue has no such field); remove it to compare decisions", k)
		}
	}
}

// ParseScenario reads a Kueue-model scenario with explicit jobs. Every problem is
// reported at once, each with its JSON path.
func ParseScenario(text []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("scenario: not valid JSON: %v", err)
	}
	r := &reader{}
	if f := r.str(top, "format", "", ""); f != "quotalab/v1" {
		r.fail("format", "must be \"quotalab/v1\" (got %q)", f)
	}
	if m := r.str(top, "model", "", "aws_batch"); m != "kueue" {
		r.fail("model", "the Kueue reference replays Kueue-model scenarios (\"model\": \"kueue\"), not %q", m)
	}
	r.unsupported(top, "", "workloads", "events")
	sc := &Scenario{GraceMs: 120_000}

	// Instance types: the names in `capacity`, `instance_types` and every limit.
	flavors := map[string]bool{}
	addFlavor := func(n string) {
		if !flavors[n] {
			flavors[n] = true
			sc.Flavors = append(sc.Flavors, n)
		}
	}
	if its, ok := top["instance_types"].([]any); ok {
		for _, it := range its {
			if m, ok := obj(it); ok {
				addFlavor(r.str(m, "name", "instance_types[]", ""))
			}
		}
	}
	collect := func(list any) {
		items, _ := list.([]any)
		for _, it := range items {
			m, ok := obj(it)
			if !ok {
				continue
			}
			for _, key := range []string{"limits", "borrowing_limit", "lending_limit"} {
				if q, ok := obj(m[key]); ok {
					names := make([]string, 0, len(q))
					for n := range q {
						names = append(names, n)
					}
					sort.Strings(names)
					for _, n := range names {
						addFlavor(n)
					}
				}
			}
		}
	}
	collect(top["shares"])
	collect(top["cohorts"])

	if q, ok := obj(top["queue"]); ok {
		sc.GraceMs = r.ms(q, "preemption_grace_s", "queue", 120_000)
	}
	defaultStrict := false
	if q, ok := obj(top["queue"]); ok {
		defaultStrict = r.str(q, "queueing", "queue", "best_effort_fifo") == "strict_fifo"
	}
	if _, ok := top["horizon_s"]; ok && top["horizon_s"] != nil {
		h := r.ms(top, "horizon_s", "", 0)
		sc.HorizonMs = &h
	}
	if fs, ok := obj(top["fair_sharing"]); ok {
		sc.FairSharing = []string{"LessThanOrEqualToFinalShare", "LessThanInitialShare"}
		if list, ok := fs["strategies"].([]any); ok {
			sc.FairSharing = nil
			for i, s := range list {
				name, _ := s.(string)
				k, ok := strategyNames[name]
				if !ok {
					r.fail(fmt.Sprintf("fair_sharing.strategies[%d]", i), "unknown strategy %q", name)
					continue
				}
				sc.FairSharing = append(sc.FairSharing, k)
			}
		}
	}

	cohortNames := map[string]bool{}
	cohorts, _ := top["cohorts"].([]any)
	for i, c := range cohorts {
		path := fmt.Sprintf("cohorts[%d]", i)
		m, ok := obj(c)
		if !ok {
			r.fail(path, "must be an object")
			continue
		}
		co := Cohort{
			Name:           r.str(m, "name", path, ""),
			Parent:         r.str(m, "parent", path, ""),
			Nominal:        r.quota(m, "limits", path, flavors),
			BorrowingLimit: r.quota(m, "borrowing_limit", path, flavors),
			LendingLimit:   r.quota(m, "lending_limit", path, flavors),
			WeightMilli:    r.weight(m, path),
		}
		cohortNames[co.Name] = true
		sc.Cohorts = append(sc.Cohorts, co)
	}

	shareNames := map[string]bool{}
	shares, _ := top["shares"].([]any)
	if len(shares) == 0 {
		r.fail("shares", "at least one share (ClusterQueue) is needed")
	}
	for i, s := range shares {
		path := fmt.Sprintf("shares[%d]", i)
		m, ok := obj(s)
		if !ok {
			r.fail(path, "must be an object")
			continue
		}
		r.unsupported(m, path, "state")
		sh := Share{
			Name:           r.str(m, "name", path, ""),
			Cohort:         r.str(m, "cohort", path, ""),
			Nominal:        r.quota(m, "limits", path, flavors),
			BorrowingLimit: r.quota(m, "borrowing_limit", path, flavors),
			LendingLimit:   r.quota(m, "lending_limit", path, flavors),
			StrictFIFO:     defaultStrict,
			Within:         "Never",
			Reclaim:        "Never",
			BorrowPolicy:   "Never",
			WeightMilli:    r.weight(m, path),
		}
		if q := r.str(m, "queueing", path, ""); q != "" {
			sh.StrictFIFO = q == "strict_fifo"
		}
		if p, ok := obj(m["preemption"]); ok {
			pp := path + ".preemption"
			sh.Within = r.enum(p, "within_share", pp, withinNames)
			sh.Reclaim = r.enum(p, "reclaim", pp, reclaimNames)
			if b, ok := obj(p["borrow_within_cohort"]); ok {
				bp := pp + ".borrow_within_cohort"
				sh.BorrowPolicy = r.enum(b, "policy", bp, bwcNames)
				if _, ok := b["max_priority_threshold"]; ok && b["max_priority_threshold"] != nil {
					t := int32(r.integer(b, "max_priority_threshold", bp, 0, math.MinInt32, math.MaxInt32))
					sh.Threshold = &t
				}
			}
		}
		shareNames[sh.Name] = true
		sc.Shares = append(sc.Shares, sh)
	}

	jobs, _ := top["jobs"].([]any)
	ids := map[string]bool{}
	for i, j := range jobs {
		path := fmt.Sprintf("jobs[%d]", i)
		m, ok := obj(j)
		if !ok {
			r.fail(path, "must be an object")
			continue
		}
		r.unsupported(m, path, "checkpoint", "preemption_retries", "recovery", "escalate", "on_retries_exhausted")
		job := Job{
			ID:        r.str(m, "id", path, ""),
			Share:     r.str(m, "share", path, ""),
			Flavor:    r.str(m, "instance_type", path, ""),
			Instances: r.integer(m, "instances", path, 1, 1, 1<<40),
			Priority:  int32(r.integer(m, "priority", path, 0, math.MinInt32, math.MaxInt32)),
			SubmitMs:  r.ms(m, "submit_s", path, 0),
		}
		job.RunMs = r.ms(m, "startup_s", path, 0) + r.ms(m, "work_s", path, 0)
		if ids[job.ID] {
			r.fail(path+".id", "%q is used by another job", job.ID)
		}
		ids[job.ID] = true
		if !shareNames[job.Share] {
			r.fail(path+".share", "no share is named %q", job.Share)
		}
		if !flavors[job.Flavor] {
			r.fail(path+".instance_type", "no share or cohort has a limit for %q", job.Flavor)
		}
		sc.Jobs = append(sc.Jobs, job)
	}
	if len(r.problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(r.problems, "\n"))
	}
	return sc, nil
}
