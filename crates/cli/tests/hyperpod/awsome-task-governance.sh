aws sagemaker \
    --region $REGION \
    create-cluster-scheduler-config \
    --name "example-cluster-scheduler-config" \
    --cluster-arn "<Enter HyperPod ClusterArn>" \
    --scheduler-config "PriorityClasses=[{Name=inference,Weight=90},{Name=experimentation,Weight=80},{Name=fine-tuning,Weight=50},{Name=training,Weight=70}],FairShare=Enabled"

aws sagemaker \
    --region $REGION \
    create-compute-quota \
    --name "Team-A-Quota-Allocation" \
    --cluster-arn "<Enter HyperPod ClusterArn>" \
    --compute-quota-config "ComputeQuotaResources=[{InstanceType=ml.g5.8xlarge,Count=2}],ResourceSharingConfig={Strategy=LendAndBorrow,BorrowLimit=50},PreemptTeamTasks=LowerPriority" \
    --activation-state "Enabled" \
    --compute-quota-target "TeamName=team-a,FairShareWeight=0"

aws sagemaker \
    --region $REGION \
    create-compute-quota \
    --name "Team-B-Quota-Allocation" \
    --cluster-arn "<Enter HyperPod ClusterArn>" \
    --compute-quota-config "ComputeQuotaResources=[{InstanceType=ml.g5.8xlarge,Count=2}],ResourceSharingConfig={Strategy=LendAndBorrow,BorrowLimit=50},PreemptTeamTasks=LowerPriority" \
    --activation-state "Enabled" \
    --compute-quota-target "TeamName=team-b,FairShareWeight=0"
