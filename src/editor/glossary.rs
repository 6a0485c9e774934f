//! The always-visible legend of allocation vs consumption, and a glossary mapping the
//! scenario's fields to AWS Batch quota-share API names and their Kueue equivalents.

use leptos::prelude::*;

use crate::ui::card::card;

/// `(term, plain words)` of the legend (SPEC 1 and 8).
pub const LEGEND: &[(&str, &str)] = &[
    (
        "Limit (entitlement)",
        "what a share is owed: its capacity limit, in instances of each type. Allocation, not use.",
    ),
    (
        "Own",
        "instances its running jobs use within its limit.",
    ),
    (
        "Borrowed",
        "instances its jobs use beyond its limit: idle quota of lending shares or unallocated capacity. The owner can take it back (reclaim).",
    ),
    (
        "Lent",
        "the part of its idle entitlement other shares are borrowing right now. It gets it back by preempting the borrowers when its own jobs arrive.",
    ),
    (
        "Held",
        "instances its jobs physically occupy: also while starting up and while being preempted (the grace period).",
    ),
    (
        "Queued",
        "its jobs waiting to be admitted, each with a reason (limit reached, capacity lent out, …).",
    ),
];

/// `(scenario field, AWS Batch, Kueue)`.
pub const GLOSSARY: &[(&str, &str, &str)] = &[
    (
        "shares[].name",
        "quota share: quotaShareName",
        "a ClusterQueue (the shares of one queue form a cohort)",
    ),
    (
        "shares[].limits {type: n}",
        "capacityLimits[]: capacityUnit (instance type), maxCapacity",
        "nominalQuota per ResourceFlavor (instance type) in resourceGroups",
    ),
    (
        "shares[].strategy",
        "resourceSharingConfiguration.strategy: RESERVE, LEND, LEND_AND_BORROW",
        "RESERVE ≈ lendingLimit 0 and borrowingLimit 0; LEND ≈ borrowingLimit 0; LEND_AND_BORROW: both allowed",
    ),
    (
        "shares[].borrow_limit (%; -1 unlimited)",
        "resourceSharingConfiguration.borrowLimit (percent of maxCapacity; -1 = unlimited)",
        "borrowingLimit (an absolute quantity; unset = unlimited)",
    ),
    (
        "lent (result)",
        "idle capacity lent to other quota shares",
        "quota borrowed from this ClusterQueue by the cohort (capped by lendingLimit)",
    ),
    (
        "reclaim (always on)",
        "cross-share preemption to restore borrowed capacity",
        "preemption.reclaimWithinCohort: Any",
    ),
    (
        "shares[].in_share_preemption",
        "preemptionConfiguration.inSharePreemption",
        "preemption.withinClusterQueue: LowerPriority (off: Never)",
    ),
    (
        "shares[].state",
        "state: ENABLED / DISABLED",
        "stopPolicy: Hold stops admitting new workloads (None = enabled)",
    ),
    (
        "jobs[].share",
        "SubmitServiceJob quotaShareName",
        "the LocalQueue that points to the ClusterQueue",
    ),
    (
        "jobs[].priority, set_priority",
        "schedulingPriority (SubmitServiceJob; can be changed while queued)",
        "Workload priority (WorkloadPriorityClass value)",
    ),
    (
        "jobs[].instance_type, instances",
        "SageMaker training ResourceConfig InstanceType, InstanceCount",
        "the Workload's podSets requests on a flavor",
    ),
    (
        "jobs[].preemption_retries",
        "preemptionConfiguration.preemptionRetriesBeforeTermination",
        "(no direct equivalent: a preempted Workload is requeued)",
    ),
    (
        "capacity {type: n}",
        "service environment capacityLimits (maxCapacity per capacityUnit)",
        "the cohort's total quota (nominal quotas plus any quota of the Cohort itself)",
    ),
    (
        "queue.queueing",
        "job queue order (model choice: AWS assigns idle capacity FIFO)",
        "queueingStrategy: BestEffortFIFO / StrictFIFO",
    ),
    (
        "model: \"kueue\"",
        "(the AWS Batch model is the default, \"aws_batch\")",
        "ClusterQueues, Cohorts and ResourceFlavors (API kueue.x-k8s.io/v1beta2)",
    ),
    (
        "shares[].cohort (Kueue model)",
        "(every quota share of a job queue is in its one pool)",
        "spec.cohortName (v1beta1: spec.cohort)",
    ),
    (
        "shares[].borrowing_limit {type: n} (Kueue model)",
        "≈ borrowLimit, as a percent of maxCapacity",
        "resourceGroups[].flavors[].resources[].borrowingLimit",
    ),
    (
        "shares[].lending_limit {type: n} (Kueue model)",
        "RESERVE lends nothing, LEND and LEND_AND_BORROW lend all",
        "resourceGroups[].flavors[].resources[].lendingLimit",
    ),
    (
        "shares[].preemption.within_share",
        "inSharePreemption (true ≈ lower_priority)",
        "spec.preemption.withinClusterQueue: Never, LowerPriority, LowerOrNewerEqualPriority",
    ),
    (
        "shares[].preemption.reclaim",
        "(always on: any)",
        "spec.preemption.reclaimWithinCohort: Never, LowerPriority, Any",
    ),
    (
        "shares[].preemption.borrow_within_cohort",
        "(no equivalent)",
        "spec.preemption.borrowWithinCohort: policy Never / LowerPriority, maxPriorityThreshold",
    ),
    (
        "shares[].queueing (Kueue model)",
        "(one order for the whole job queue: queue.queueing)",
        "spec.queueingStrategy: BestEffortFIFO, StrictFIFO",
    ),
    (
        "shares[].weight, cohorts[].weight",
        "(no fair sharing)",
        "spec.fairSharing.weight",
    ),
    (
        "cohorts[] {name, parent, limits, borrowing_limit, lending_limit}",
        "(no cohorts)",
        "Cohort (v1beta2; v1alpha1): metadata.name, spec.parentName, spec.resourceGroups nominalQuota, borrowingLimit, lendingLimit",
    ),
    (
        "fair_sharing {strategies}",
        "(no fair sharing)",
        "Configuration fairSharing.preemptionStrategies: LessThanOrEqualToFinalShare, LessThanInitialShare",
    ),
    (
        "jobs[].recovery, escalate, on_retries_exhausted",
        "(Quota Lab model parameters: restore quality, urgency raised near a deadline, what a job out of retries becomes)",
        "(the same, model parameters)",
    ),
    (
        "shares[].agreement",
        "(who owns the quota share and what borrowers may expect: kept beside the results)",
        "(the same, e.g. a ClusterQueue's annotations)",
    ),
    (
        "queue.preemption_grace_s",
        "time between SIGTERM and the instances' release (model parameter)",
        "the pods' terminationGracePeriodSeconds",
    ),
];

/// [`LEGEND`] in the Kueue model's words (SPEC 12: a ClusterQueue's nominalQuota, its
/// cohort, borrowingLimit and lendingLimit, pending workloads).
pub const LEGEND_KUEUE: &[(&str, &str)] = &[
    (
        "nominalQuota",
        "what a ClusterQueue is owed: its nominal quota of each ResourceFlavor, in instances. Allocation, not use.",
    ),
    (
        "Own",
        "instances its admitted workloads use within its nominalQuota.",
    ),
    (
        "Borrowed",
        "instances its workloads use beyond its nominalQuota: unused quota of its cohort (other ClusterQueues' up to their lendingLimit, or the cohort's own), within its borrowingLimit. The lender can take it back (reclaimWithinCohort).",
    ),
    (
        "Lent",
        "the part of its unused nominalQuota other ClusterQueues of its cohort are borrowing right now. It gets it back by preempting the borrowers when its own workloads arrive.",
    ),
    (
        "Held",
        "instances its workloads physically occupy: also while starting up and while being preempted (the grace period).",
    ),
    (
        "Pending",
        "its workloads waiting to be admitted, each with a reason (nominalQuota reached, no unused quota in the cohort, …).",
    ),
];

/// Legend and glossary, shown below the editor; the legend in the Kueue model's words when
/// `kueue` (the last run's model).
#[component]
pub fn Glossary(#[prop(optional, into)] kueue: Signal<bool>) -> impl IntoView {
    let intro = move || {
        if kueue.get() {
            view! {
                "Allocation is what a ClusterQueue is "
                <em>"owed"</em>
                " (its nominalQuota); consumption is what its workloads "
                <em>"use"</em>
                ". The gap between them is what its cohort lends and reclaims."
            }
            .into_any()
        } else {
            view! {
                "Allocation is what a share is "
                <em>"owed"</em>
                "; consumption is what its jobs "
                <em>"use"</em>
                ". The gap between them is what lending and reclaiming move around."
            }
            .into_any()
        }
    };
    view! {
        {card("legend", "Allocation vs consumption", "glossary", Some("glossary"), view! {
            <p class="legend-intro">{intro}</p>
            <dl class="legend-terms" data-testid="legend">
                {move || {
                    let terms = if kueue.get() { LEGEND_KUEUE } else { LEGEND };
                    terms
                        .iter()
                        .map(|(term, words)| {
                            view! {
                                <div class="legend-term">
                                    <dt>{*term}</dt>
                                    <dd>{*words}</dd>
                                </div>
                            }
                        })
                        .collect_view()
                }}
            </dl>
            <details class="glossary-table">
                <summary>"Glossary: scenario fields, AWS Batch and Kueue names"</summary>
                <dl class="glossary-list">
                    {GLOSSARY
                        .iter()
                        .map(|(field, aws, kueue)| {
                            view! {
                                <div class="glossary-entry">
                                    <dt>
                                        <code>{*field}</code>
                                    </dt>
                                    <dd>
                                        <span class="glossary-source">"AWS Batch"</span>
                                        {*aws}
                                    </dd>
                                    <dd>
                                        <span class="glossary-source">"Kueue"</span>
                                        {*kueue}
                                    </dd>
                                </div>
                            }
                        })
                        .collect_view()}
                </dl>
            </details>
        })}
    }
}
