#!/bin/sh
# The compute quotas of scenario "HyperPod task governance" for SageMaker HyperPod task governance.
# The cluster must be EKS-orchestrated with the task governance add-on installed.
set -e
: "${CLUSTER_ARN:?set CLUSTER_ARN to the HyperPod cluster's ARN}"

aws sagemaker create-cluster-scheduler-config \
  --name quotalab-cluster-policy \
  --cluster-arn "$CLUSTER_ARN" \
  --scheduler-config '{"PriorityClasses":[{"Name":"inference","Weight":90},{"Name":"experimentation","Weight":80},{"Name":"fine-tuning","Weight":50},{"Name":"training","Weight":70}],"FairShare":"Enabled"}'

aws sagemaker create-compute-quota \
  --name 'team-a' \
  --cluster-arn "$CLUSTER_ARN" \
  --compute-quota-config '{"ComputeQuotaResources":[{"InstanceType":"ml.g5.8xlarge","Count":2}],"ResourceSharingConfig":{"Strategy":"LendAndBorrow","BorrowLimit":50},"PreemptTeamTasks":"LowerPriority"}' \
  --compute-quota-target '{"TeamName":"team-a","FairShareWeight":0}' \
  --activation-state Enabled

aws sagemaker create-compute-quota \
  --name 'team-b' \
  --cluster-arn "$CLUSTER_ARN" \
  --compute-quota-config '{"ComputeQuotaResources":[{"InstanceType":"ml.g5.8xlarge","Count":2}],"ResourceSharingConfig":{"Strategy":"LendAndBorrow","BorrowLimit":50},"PreemptTeamTasks":"LowerPriority"}' \
  --compute-quota-target '{"TeamName":"team-b","FairShareWeight":0}' \
  --activation-state Enabled
