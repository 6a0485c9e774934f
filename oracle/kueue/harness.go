package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
	_ "unsafe" // go:linkname to the scheduler's unexported cycle

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/event"

	config "sigs.k8s.io/kueue/apis/config/v1beta2"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	qcache "sigs.k8s.io/kueue/pkg/cache/queue"
	schdcache "sigs.k8s.io/kueue/pkg/cache/scheduler"
	"sigs.k8s.io/kueue/pkg/controller/core"
	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/util/expectations"
	"sigs.k8s.io/kueue/pkg/util/routine"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing"
	"sigs.k8s.io/kueue/pkg/util/wait"
	"sigs.k8s.io/kueue/pkg/workload"
)

// schedule is Kueue's own scheduling cycle (scheduler.go `schedule`): the exported Start
// loops in real time, so the harness calls one cycle at a time, as Kueue's unit tests do.
//
//go:linkname schedule sigs.k8s.io/kueue/pkg/scheduler.(*Scheduler).schedule
func schedule(s *scheduler.Scheduler, ctx context.Context) wait.SpeedSignal

//go:linkname setAdmissionRoutineWrapper sigs.k8s.io/kueue/pkg/scheduler.(*Scheduler).setAdmissionRoutineWrapper
func setAdmissionRoutineWrapper(s *scheduler.Scheduler, w routine.Wrapper)

// inline runs the admission's status patch at once, so a cycle's writes are all done
// when it returns (Kueue runs it in a goroutine; its tests wait for it).
type inline struct{}

func (inline) Run(f func()) { f() }

const namespace = "default"

// epoch is time 0 of a scenario (any fixed instant: only differences matter).
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Event is one decision, in the result JSON's own field names (SPEC 8).
type Event struct {
	TimeMs int64  `json:"-"`
	T      any    `json:"t_s"`
	Job    string `json:"job"`
	Share  string `json:"share"`
	Kind   string `json:"kind"`
	By     string `json:"by,omitempty"`
	Cause  string `json:"cause,omitempty"`
}

type Output struct {
	KueueVersion string  `json:"kueue_version"`
	Events       []Event `json:"events"`
	// Cycles is how many scheduling cycles ran (a measure of the work, not a decision).
	Cycles int `json:"cycles"`
}

// seconds renders ms as the result JSON does: whole seconds as integers.
func seconds(ms int64) any {
	if ms%1000 == 0 {
		return ms / 1000
	}
	return float64(ms) / 1000
}

func resourceOf(flavor string) corev1.ResourceName {
	return corev1.ResourceName("quotalab.dev/" + flavor)
}

func quantity(n int64) resource.Quantity { return *resource.NewQuantity(n, resource.DecimalSI) }

// groups builds one resource group per instance type (SPEC 12: each instance type is a
// ResourceFlavor of its own resource), for the types this node names.
func groups(flavors []string, nominal, borrowing, lending Quota) []kueue.ResourceGroup {
	var out []kueue.ResourceGroup
	for _, f := range flavors {
		n, named := nominal[f]
		_, b := borrowing[f]
		_, l := lending[f]
		if !named && !b && !l {
			continue
		}
		rq := kueue.ResourceQuota{Name: resourceOf(f), NominalQuota: quantity(n)}
		if v, ok := borrowing[f]; ok {
			rq.BorrowingLimit = ptr.To(quantity(v))
		}
		if v, ok := lending[f]; ok {
			rq.LendingLimit = ptr.To(quantity(v))
		}
		out = append(out, kueue.ResourceGroup{
			CoveredResources: []corev1.ResourceName{resourceOf(f)},
			Flavors:          []kueue.FlavorQuotas{{Name: kueue.ResourceFlavorReference(f), Resources: []kueue.ResourceQuota{rq}}},
		})
	}
	return out
}

func weight(milli int64) *kueue.FairSharing {
	return &kueue.FairSharing{Weight: resource.NewMilliQuantity(milli, resource.DecimalSI)}
}

type jobState struct {
	spec       Job
	key        types.NamespacedName
	completeAt int64 // -1 unless admitted
	releaseAt  int64 // -1 unless evicted and holding quota through its grace
}

type harness struct {
	sc         *Scenario
	ctx        context.Context
	clock      *testingclock.FakeClock
	cl         client.Client
	cache      *schdcache.Cache
	queues     *qcache.Manager
	requeuer   interface{ ProcessRequeues(context.Context) int }
	reconciler *core.WorkloadReconciler
	sched      *scheduler.Scheduler
	known      map[types.NamespacedName]*kueue.Workload
	written    []types.NamespacedName
	jobs       map[string]*jobState
	nowMs      int64
	events     []Event
	cycles     int
	recorder   *record.FakeRecorder
}

// drainRecorder empties Kueue's event recorder (its events are not decisions), printing
// them when tracing.
func (h *harness) drainRecorder() {
	for {
		select {
		case e := <-h.recorder.Events:
			if trace {
				fmt.Fprintf(os.Stderr, "  event: %s\n", e)
			}
		default:
			return
		}
	}
}

// Replay runs a scenario through Kueue's scheduler, cache and queue manager, with the
// harness playing the API server's watch, the job controller and the clock.
func Replay(sc *Scenario) (*Output, error) {
	h := &harness{sc: sc, known: map[types.NamespacedName]*kueue.Workload{}, jobs: map[string]*jobState{}}
	if err := h.build(); err != nil {
		return nil, err
	}
	if err := h.run(); err != nil {
		return nil, err
	}
	return &Output{KueueVersion: KueueVersion, Events: h.events, Cycles: h.cycles}, nil
}

func (h *harness) build() error {
	ctx := ctrl.LoggerInto(context.Background(), ctrl.Log)
	h.ctx = ctx
	h.clock = testingclock.NewFakeClock(epoch)
	note := func(key types.NamespacedName) { h.written = append(h.written, key) }
	h.cl = utiltesting.NewClientBuilder().
		WithObjects(utiltesting.MakeNamespace(namespace)).
		WithStatusSubresource(&kueue.Workload{}).
		WithInterceptorFuncs(interceptor.Funcs{
			SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
				err := utiltesting.TreatSSAAsStrategicMerge(ctx, c, sub, obj, patch, opts...)
				if err == nil {
					note(client.ObjectKeyFromObject(obj))
				}
				return err
			},
			SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
				err := c.SubResource(sub).Update(ctx, obj, opts...)
				if err == nil {
					note(client.ObjectKeyFromObject(obj))
				}
				return err
			},
			Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
				err := c.Patch(ctx, obj, patch, opts...)
				if err == nil {
					note(client.ObjectKeyFromObject(obj))
				}
				return err
			},
			Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
				err := c.Update(ctx, obj, opts...)
				if err == nil {
					note(client.ObjectKeyFromObject(obj))
				}
				return err
			},
		}).Build()
	h.cache = schdcache.New(h.cl)
	store := expectations.NewStore("preemptions")
	queues, requeuer := qcache.NewManagerForUnitTestsWithRequeuer(h.cl, h.cache, qcache.WithPreemptionExpectations(store))
	h.queues, h.requeuer = queues, requeuer
	recorder := record.NewFakeRecorder(1 << 16)
	recorder.IncludeObject = true
	h.recorder = recorder
	h.reconciler = core.NewWorkloadReconciler(h.cl, h.queues, h.cache, recorder, core.WithPreemptionExpectations(store))

	log := ctrlLog()
	for _, f := range h.sc.Flavors {
		rf := &kueue.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: f}}
		if err := h.cl.Create(ctx, rf); err != nil {
			return err
		}
		h.cache.AddOrUpdateResourceFlavor(log, rf)
	}
	// Cohorts named by a share or a parent but not listed exist with no quota (SPEC 12).
	for _, c := range h.sc.Cohorts {
		co := &kueue.Cohort{ObjectMeta: metav1.ObjectMeta{Name: c.Name}}
		co.Spec.ParentName = kueue.CohortReference(c.Parent)
		co.Spec.ResourceGroups = groups(h.sc.Flavors, c.Nominal, c.BorrowingLimit, c.LendingLimit)
		co.Spec.FairSharing = weight(c.WeightMilli)
		if err := h.cl.Create(ctx, co); err != nil {
			return err
		}
		if err := h.cache.AddOrUpdateCohort(co); err != nil {
			return fmt.Errorf("cohort %s: %v", c.Name, err)
		}
		h.queues.AddOrUpdateCohort(ctx, co)
	}
	for _, s := range h.sc.Shares {
		cq := &kueue.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: s.Name}}
		cq.Spec.NamespaceSelector = &metav1.LabelSelector{}
		cq.Spec.CohortName = kueue.CohortReference(s.Cohort)
		cq.Spec.ResourceGroups = groups(h.sc.Flavors, s.Nominal, s.BorrowingLimit, s.LendingLimit)
		cq.Spec.QueueingStrategy = kueue.BestEffortFIFO
		if s.StrictFIFO {
			cq.Spec.QueueingStrategy = kueue.StrictFIFO
		}
		cq.Spec.FlavorFungibility = &kueue.FlavorFungibility{WhenCanBorrow: kueue.MayStopSearch, WhenCanPreempt: kueue.TryNextFlavor}
		cq.Spec.Preemption = &kueue.ClusterQueuePreemption{
			WithinClusterQueue:  kueue.PreemptionPolicy(s.Within),
			ReclaimWithinCohort: kueue.PreemptionPolicy(s.Reclaim),
			BorrowWithinCohort: &kueue.BorrowWithinCohort{
				Policy:               kueue.BorrowWithinCohortPolicy(s.BorrowPolicy),
				MaxPriorityThreshold: s.Threshold,
			},
		}
		cq.Spec.FairSharing = weight(s.WeightMilli)
		if err := h.cl.Create(ctx, cq); err != nil {
			return err
		}
		if err := h.cache.AddClusterQueue(ctx, cq); err != nil {
			return fmt.Errorf("clusterqueue %s: %v", s.Name, err)
		}
		if err := h.queues.AddClusterQueue(ctx, cq); err != nil {
			return fmt.Errorf("clusterqueue %s: %v", s.Name, err)
		}
		lq := &kueue.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: namespace}}
		lq.Spec.ClusterQueue = kueue.ClusterQueueReference(s.Name)
		if err := h.cl.Create(ctx, lq); err != nil {
			return err
		}
		if err := h.queues.AddLocalQueue(ctx, lq); err != nil {
			return fmt.Errorf("localqueue %s: %v", s.Name, err)
		}
	}
	var fs *config.FairSharing
	if h.sc.FairSharing != nil {
		fs = &config.FairSharing{}
		for _, s := range h.sc.FairSharing {
			fs.PreemptionStrategies = append(fs.PreemptionStrategies, config.PreemptionStrategy(s))
		}
	}
	h.sched = scheduler.New(h.queues, h.cache, h.cl, recorder,
		scheduler.WithClock(nil, h.clock), scheduler.WithFairSharing(fs), scheduler.WithPreemptionExpectations(store))
	setAdmissionRoutineWrapper(h.sched, inline{})
	for _, j := range h.sc.Jobs {
		h.jobs[j.ID] = &jobState{spec: j, key: types.NamespacedName{Namespace: namespace, Name: wlName(j.ID)}, completeAt: -1, releaseAt: -1}
	}
	return nil
}

// wlName makes a job id a valid object name; the UID keeps the id itself.
func wlName(id string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(id) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteString(fmt.Sprintf("x%x", r))
		}
	}
	return "wl-" + b.String()
}

// run replays the scenario instant by instant (SPEC 4's order at one instant: ends of
// grace, completions, submissions), running Kueue's cycles until nothing changes.
func (h *harness) run() error {
	byID := map[string]*jobState{}
	for _, j := range h.jobs {
		byID[j.spec.ID] = j
	}
	submitted := 0
	order := append([]Job(nil), h.sc.Jobs...)
	sort.SliceStable(order, func(a, b int) bool { return order[a].SubmitMs < order[b].SubmitMs })
	for {
		next := int64(math.MaxInt64)
		if submitted < len(order) {
			next = order[submitted].SubmitMs
		}
		for _, j := range h.jobs {
			if j.completeAt >= 0 && j.completeAt < next {
				next = j.completeAt
			}
			if j.releaseAt >= 0 && j.releaseAt < next {
				next = j.releaseAt
			}
		}
		if next == math.MaxInt64 {
			return nil
		}
		if h.sc.HorizonMs != nil && next > *h.sc.HorizonMs {
			return nil
		}
		if h.cycles > maxCyclesInAll {
			return h.notSettled(next, h.cycles)
		}
		h.nowMs = next
		h.clock.SetTime(epoch.Add(time.Duration(next) * time.Millisecond))

		// 1. Ends of grace: the job controller has stopped the victim; it clears the
		// quota reservation and marks the workload requeued (jobframework reconciler,
		// "handle eviction"), in job order for determinism.
		for _, j := range h.sorted(func(j *jobState) bool { return j.releaseAt == next }) {
			j.releaseAt = -1
			if err := h.release(j); err != nil {
				return err
			}
		}
		// 2. Completions: workload.Finish, as the job controller does when the job succeeds.
		for _, j := range h.sorted(func(j *jobState) bool { return j.completeAt == next }) {
			j.completeAt = -1
			wl := &kueue.Workload{}
			if err := h.cl.Get(h.ctx, j.key, wl); err != nil {
				return err
			}
			workload.SetFinishedCondition(wl, h.clock.Now(), kueue.WorkloadFinishedReasonSucceeded, "Job finished successfully")
			if err := h.cl.Status().Update(h.ctx, wl); err != nil {
				return fmt.Errorf("finishing %s: %v", j.spec.ID, err)
			}
			h.written = append(h.written, j.key)
			h.events = append(h.events, Event{TimeMs: next, Job: j.spec.ID, Share: j.spec.Share, Kind: "complete"})
		}
		h.deliver()
		// 3. Submissions, in file order.
		for submitted < len(order) && order[submitted].SubmitMs == next {
			if err := h.create(order[submitted]); err != nil {
				return err
			}
			submitted++
		}
		h.requeuer.ProcessRequeues(h.ctx)
		if err := h.cycles_(); err != nil {
			return err
		}
	}
}

func (h *harness) sorted(pick func(*jobState) bool) []*jobState {
	var out []*jobState
	for _, j := range h.jobs {
		if pick(j) {
			out = append(out, j)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].spec.ID < out[b].spec.ID })
	return out
}

func (h *harness) create(j Job) error {
	st := h.jobs[j.ID]
	ps := kueue.PodSet{Name: kueue.DefaultPodSetName, Count: int32(j.Instances)}
	ps.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
	ps.Template.Spec.Containers = []corev1.Container{{
		Name:      "c",
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{resourceOf(j.Flavor): quantity(1)}},
	}}
	wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{
		Name:              st.key.Name,
		Namespace:         namespace,
		UID:               types.UID(j.ID),
		CreationTimestamp: metav1.NewTime(h.clock.Now()),
	}}
	wl.Spec.QueueName = kueue.LocalQueueName(j.Share)
	wl.Spec.Priority = ptr.To(j.Priority)
	wl.Spec.PodSets = []kueue.PodSet{ps}
	if err := h.cl.Create(h.ctx, wl); err != nil {
		return fmt.Errorf("creating %s: %v", j.ID, err)
	}
	got := &kueue.Workload{}
	if err := h.cl.Get(h.ctx, st.key, got); err != nil {
		return err
	}
	h.known[st.key] = got.DeepCopy()
	h.reconciler.Create(event.TypedCreateEvent[*kueue.Workload]{Object: got})
	return nil
}

func (h *harness) release(j *jobState) error {
	wl := &kueue.Workload{}
	if err := h.cl.Get(h.ctx, j.key, wl); err != nil {
		return err
	}
	ev := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted)
	if ev == nil {
		return fmt.Errorf("%s: released without an eviction", j.spec.ID)
	}
	// A status update, not Kueue's server-side apply: the fake client's stand-in for SSA
	// (a strategic merge) cannot remove the admission, and a stale admission would change
	// how the workload is queued again.
	workload.SetRequeuedCondition(wl, ev.Reason, ev.Message, ev.Reason == kueue.WorkloadEvictedByPreemption)
	workload.UnsetQuotaReservationWithCondition(wl, "Pending", ev.Message, h.clock.Now())
	if err := h.cl.Status().Update(h.ctx, wl); err != nil {
		return fmt.Errorf("releasing %s: %v", j.spec.ID, err)
	}
	h.written = append(h.written, j.key)
	h.deliver()
	return nil
}

var preemptorUID = regexp.MustCompile(`\(UID: ([^,]*),`)

var causes = map[string]string{
	kueue.InClusterQueueReason:                "in_share",
	kueue.InCohortReclamationReason:           "reclaim",
	kueue.InCohortReclaimWhileBorrowingReason: "reclaim_while_borrowing",
	kueue.InCohortFairSharingReason:           "fair_sharing",
}

// deliver plays the API server's watch: every workload written since the last delivery
// reaches Kueue's workload controller as an update event (old, new), in write order.
// It records the decisions these writes carry and says whether there was one (a status
// patch that only restates why a workload waits is not a change).
func (h *harness) deliver() (changed bool) {
	seen := map[types.NamespacedName]bool{}
	written := h.written
	h.written = nil
	for _, key := range written {
		if seen[key] {
			continue
		}
		seen[key] = true
		old := h.known[key]
		now := &kueue.Workload{}
		if err := h.cl.Get(h.ctx, key, now); err != nil || old == nil {
			continue
		}
		if old.ResourceVersion == now.ResourceVersion {
			continue
		}
		id := string(now.UID)
		j := h.jobs[id]
		if !workload.HasQuotaReservation(old) && workload.HasQuotaReservation(now) {
			h.events = append(h.events, Event{TimeMs: h.nowMs, Job: id, Share: j.spec.Share, Kind: "dispatch"})
			changed = true
			j.completeAt = h.nowMs + j.spec.RunMs
		}
		if !workload.IsEvicted(old) && workload.IsEvicted(now) {
			ev := Event{TimeMs: h.nowMs, Job: id, Share: j.spec.Share, Kind: "preempt"}
			if pc := apimeta.FindStatusCondition(now.Status.Conditions, kueue.WorkloadPreempted); pc != nil {
				ev.Cause = causes[pc.Reason]
				if m := preemptorUID.FindStringSubmatch(pc.Message); m != nil {
					ev.By = m[1]
				}
			}
			h.events = append(h.events, ev)
			changed = true
			j.completeAt = -1
			j.releaseAt = h.nowMs + h.sc.GraceMs
		}
		if trace {
			fmt.Fprintf(os.Stderr, "  %s: reserved %v evicted %v\n", id, workload.HasQuotaReservation(now), workload.IsEvicted(now))
		}
		h.known[key] = now.DeepCopy()
		h.reconciler.Update(event.TypedUpdateEvent[*kueue.Workload]{ObjectOld: old, ObjectNew: now})
	}
	return changed
}

// cycles_ runs Kueue's scheduling cycles at one instant until one changes nothing: no
// admission, no eviction, and the same pending and inadmissible workloads as before it.
// Victims whose grace is 0 are released between cycles, as the job controller would.
func (h *harness) cycles_() error {
	for guard := 0; ; guard++ {
		if guard >= maxCycles {
			return h.notSettled(h.nowMs, guard)
		}
		pending := h.queues.Dump()
		if len(pending) == 0 {
			return nil
		}
		before := dumpText(pending) + "|" + dumpText(h.queues.DumpInadmissible())
		if trace {
			fmt.Fprintf(os.Stderr, "t=%s cycle %d: pending %s\n", fmtMs(h.nowMs), h.cycles+1, before)
		}
		schedule(h.sched, h.ctx)
		h.cycles++
		h.drainRecorder()
		changed := h.deliver()
		// Grace 0: the victim is gone at once; its quota is free for the next cycle.
		for _, j := range h.sorted(func(j *jobState) bool { return j.releaseAt == h.nowMs }) {
			j.releaseAt = -1
			if err := h.release(j); err != nil {
				return err
			}
			changed = true
		}
		h.requeuer.ProcessRequeues(h.ctx)
		after := dumpText(h.queues.Dump()) + "|" + dumpText(h.queues.DumpInadmissible())
		if !changed && before == after {
			return nil
		}
	}
}

func dumpText(d map[kueue.ClusterQueueReference][]workload.Reference) string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		refs := d[kueue.ClusterQueueReference(k)]
		names := make([]string, len(refs))
		for i, r := range refs {
			names[i] = string(r)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "%s=%s;", k, strings.Join(names, ","))
	}
	return b.String()
}

// maxCycles bounds the cycles of one instant: Kueue's cycles can alternate forever (a
// preemptor evicts a borrower that is admitted again before it, and so on).
const maxCycles = 500

// maxCyclesInAll bounds a whole replay without a horizon (a preemption circle over time).
const maxCyclesInAll = 200_000

// NotSettled says Kueue's cycles at one instant kept changing the state: a livelock of
// the real scheduler (or of the harness), reported rather than compared.
type NotSettled struct {
	AtMs   int64
	Cycles int
	Last   []Event
	// Before are the decisions made before AtMs, which settled: they can still be compared.
	Before []Event
}

// notSettled is the NotSettled error of the harness's state: the instant, the cycles run,
// the last decisions and every decision before the instant.
func (h *harness) notSettled(at int64, cycles int) *NotSettled {
	before := 0
	for before < len(h.events) && h.events[before].TimeMs < at {
		before++
	}
	return &NotSettled{AtMs: at, Cycles: cycles, Last: h.events[max(0, len(h.events)-4):], Before: h.events[:before]}
}

func (e *NotSettled) Error() string {
	var last []string
	for _, ev := range e.Last {
		s := ev.Kind + " " + ev.Job
		if ev.By != "" {
			s += " by " + ev.By
		}
		last = append(last, s)
	}
	return fmt.Sprintf("not settled: at t=%s Kueue's cycles kept changing the state for %d cycles (last decisions: %s)", fmtMs(e.AtMs), e.Cycles, strings.Join(last, ", "))
}

// trace prints each cycle's queues on stderr (QUOTALAB_ORACLE_TRACE=1).
var trace = os.Getenv("QUOTALAB_ORACLE_TRACE") != ""

func fmtMs(ms int64) string { return fmt.Sprintf("%vs", seconds(ms)) }
