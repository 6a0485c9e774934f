#!/usr/bin/env python3
"""Writes fuzz/seeds/TARGET/* from the repository's fixtures and presets (run once; the seeds
are committed, small). Each seed is a real input of the door it feeds, in the target's form."""
import base64, glob, json, os, struct, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "seeds")
MAX = 16 * 1024  # seeds stay small: the fuzzer grows its own corpus under fuzz/corpus


def put(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX:
        return
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name), "wb") as f:
        f.write(data)


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


scenarios = sorted(glob.glob(os.path.join(ROOT, "www/presets/*.json"))) + sorted(
    glob.glob(os.path.join(ROOT, "crates/engine/tests/golden/*.json"))
) + sorted(glob.glob(os.path.join(ROOT, "crates/engine/tests/determinism/*.json")))
for path in scenarios:
    data = open(path, "rb").read()
    name = os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path)
    put("scenario_json", name, data)
    try:
        compact = json.dumps(json.loads(data), separators=(",", ":")).encode()
    except ValueError:
        continue
    payload = base64.urlsafe_b64encode(zlib.compress(compact, 9)).rstrip(b"=")
    if "presets" in path:
        put("link", "url-" + os.path.basename(path), b"https://example.org/quotalab/#s=" + payload)
        put("link", "json-" + os.path.basename(path), compact)
    put("link", name, payload)

# The hostile links of link.rs's tests.
def z(b):
    return base64.urlsafe_b64encode(zlib.compress(b, 9)).rstrip(b"=")
put("link", "empty", b"#s=")
put("link", "not-base64", b"not a link!")
put("link", "not-zlib", base64.urlsafe_b64encode(b"hello world").rstrip(b"="))
put("link", "not-utf8", z(b"\xff\xfe\x00"))
put("link", "not-json", z(b'{"format": '))
put("link", "not-object", z(b"[1, 2, 3]"))
put("link", "deep", z(b"[" * 100000))
put("link", "trailing", z(b'{"a":1}') + base64.urlsafe_b64encode(b"junk").rstrip(b"="))

# CSV traces: 17 option bytes (see trace_csv.rs's Opts: submit, ms, end, duration, gpus,
# share, top_shares, priority, priority_map, gpus_per_instance, equal, capacity, strategy,
# borrow_limit, limit_jobs), then the CSV.
three = b"submit,duration,gpus,team\n0,60,1,a\n0,10,1,b\n0,20,1,b\n0,2,1,c\n0,3,1,c\n0,5,1,c\n"
opts = bytes([0, 0, 0, 2, 1, 4, 1, 6, 0, 0, 0, 1, 0, 0, 0, 0, 0])
put("trace_csv", "three-shares", opts + three)
opts_top = bytes([0, 0, 0, 2, 1, 4, 1, 6, 1, 2, 0, 0, 1, 0, 1, 1, 0, 2, 0, 0])
put("trace_csv", "three-shares-top2-equal", opts_top + three)
philly = b"\n".join(read("../shared/traces/philly-adaptdl.csv").split(b"\n")[:60]) + b"\n" if os.path.exists(os.path.join(ROOT, "../shared/traces/philly-adaptdl.csv")) else None
if philly:
    popts = bytes([1, 0, 0, 2, 1, 5, 1, 7, 0, 0, 0, 8, 0, 0, 0, 0, 0])
    put("trace_csv", "philly-60", popts + philly)
ends = b"submit,end,gpus,qos,priority\n1000,5000,2,LS,1\n2000,2500,8,BE,0\n2500,9000,1,LS,2\n"
put("trace_csv", "end-ms-priority", bytes([0, 1, 1, 3, 1, 4, 1, 9, 0, 1, 8, 1, 0, 2, 0, 1, 0, 0, 0]) + ends)

# Configurations: one option byte (config.rs: 0 the defaults), then the file.
for path in sorted(glob.glob(os.path.join(ROOT, "crates/engine/tests/config/*"))):
    base = os.path.basename(path)
    if base.endswith(".yaml"):
        put("config_kueue", base, b"\x00" + open(path, "rb").read())
        put("config_kueue", "flavors-" + base, b"\x04" + open(path, "rb").read())
    elif base.endswith(".json"):
        put("config_aws", base, b"\x00" + open(path, "rb").read())

# --vary lines against the walkthrough.
for i, line in enumerate([
    "shares[0].borrow_limit=0..200:50",
    "capacity.ml.g5.xlarge=1..10:1\nshares[1].limits.ml.g5.xlarge=0..4:0.5",
    "queue.preemption_grace_s=0..1.5:0.25",
    "seed=1..3:1",
    "shares[0].borrow_limit=1e2..1e3:1e2",
]):
    put("sweep_vary", f"vary-{i}", line)

# Worker messages: postcard bytes (varint enum tags, varint lengths).
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)
def s(t):
    return varint(len(t)) + t
walk = read("www/presets/aws-walkthrough.json")
put("worker_protocol", "warmup", b"\x00")
put("worker_protocol", "run", b"\x01" + varint(7) + s(walk) + varint(400) + varint(400) + b"\x01")
put("worker_protocol", "ready", b"\x00")
put("worker_protocol", "problems", b"\x03" + varint(7) + varint(1) + s(b"shares[0].name") + s(b"is required"))
put("worker_protocol", "progress", b"\x02" + varint(7) + struct.pack("<d", 0.5) + b"\x01")

# The structured target: a few byte strings (arbitrary reads any bytes).
for i, n in enumerate([64, 256, 1024]):
    put("simulate", f"bytes-{n}", bytes((j * 37 + i) % 251 for j in range(n)))

# Job histories (history.rs): one option byte (bits 0-1 the shares: 0 the Kueue
# configuration, 1 the AWS one, 2 the fixed scenario, 3 both; bit 2 --flavor-map; bit 3
# --resource cpu; bits 4-5 a fixed window; bit 6 the first line is --from; bit 7 two files
# split at NUL), then the history.
H = "crates/cli/tests/history/"
wl_yaml = read(H + "kueue-workloads.yaml")
wl_json = read(H + "kueue-workloads-v1beta2.json")
put("history", "kueue-yaml", b"\x04" + wl_yaml)
put("history", "kueue-json", b"\x04" + wl_json)
put("history", "kueue-yaml-scenario", b"\x06" + wl_yaml)
put("history", "kueue-yaml-into", b"\x07" + wl_yaml)
put("history", "kueue-yaml-window", b"\x34" + wl_yaml)
put("history", "kueue-json-from-line", b"\x44" + b"2026-03-02T08:04:00Z\n" + wl_json)
put("history", "kueue-two-files", b"\x84" + wl_json + b"\x00" + wl_json)
put("history", "kueue-cpu", b"\x08" + wl_json)
describe = json.loads(read(H + "aws-describe-jobs.json"))
for i in range(0, len(describe["jobs"]), 3):
    part = json.dumps({"jobs": describe["jobs"][i:i + 3]}, indent=1).encode()
    put("history", f"aws-describe-{i}", b"\x01" + part)
    put("history", f"aws-describe-{i}-scenario", b"\x02" + part)
service = read(H + "aws-list-service-jobs.json")
put("history", "aws-service", b"\x01" + service)
put("history", "aws-service-window", b"\x31" + service)
put("history", "aws-two-files", b"\x81" + service + b"\x00" + json.dumps(describe["jobs"][:2]).encode())

# HyperPod task governance (hyperpod.rs): one option byte (bit 0 export a script, bit 1
# --cluster, bit 2 an export cluster ARN, bit 3 two files split at NUL), then JSON bodies or
# `aws sagemaker` commands.
P = "crates/cli/tests/hyperpod/"
sh = read(P + "awsome-task-governance.sh")
ej = read(P + "awsome-task-governance.export.json")
es = read(P + "awsome-task-governance.export.sh")
put("hyperpod", "awsome-sh", b"\x00" + sh)
put("hyperpod", "awsome-sh-script", b"\x05" + sh)
put("hyperpod", "export-json", b"\x00" + ej)
put("hyperpod", "export-json-script", b"\x01" + ej)
put("hyperpod", "export-sh", b"\x04" + es)
put("hyperpod", "json-and-sh", b"\x08" + ej + b"\x00" + sh)
def quota(team, config, **kw):
    q = {"ComputeQuotaConfig": config, "ComputeQuotaTarget": {"TeamName": team}}
    q.update(kw)
    return q
g5 = [{"InstanceType": "ml.g5.8xlarge", "Count": 4}]
bodies = [
    {"SchedulerConfig": {"PriorityClasses": [{"Name": "high", "Weight": 100}, {"Name": "low", "Weight": 0}], "FairShare": "Enabled"}},
    quota("dont", {"ComputeQuotaResources": g5, "ResourceSharingConfig": {"Strategy": "DontLend"}, "PreemptTeamTasks": "Never"}),
    quota("lend", {"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Count": 3}, {"InstanceType": "ml.p5.48xlarge", "Count": 0}],
                   "ResourceSharingConfig": {"Strategy": "Lend"}}),
    quota("both", {"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Count": 5}, {"InstanceType": "ml.p5.48xlarge", "Count": 3}],
                   "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 60,
                                             "AbsoluteBorrowLimits": [{"InstanceType": "ml.p5.48xlarge", "Count": 7}]}}),
    quota("cpu", {"ComputeQuotaResources": [{"InstanceType": "ml.c5.2xlarge", "Count": 2, "Accelerators": 0, "VCpu": 8}]},
          ActivationState="Disabled"),
]
bodies[4]["ComputeQuotaTarget"]["FairShareWeight"] = 40
put("hyperpod", "bodies", b"\x00" + json.dumps(bodies, indent=1).encode())
put("hyperpod", "bodies-script", b"\x03" + json.dumps(bodies).encode())
put("hyperpod", "describe", b"\x02" + json.dumps({
    "ComputeQuotaArn": "arn:aws:sagemaker:us-west-2:123456789012:compute-quota/q1",
    "ComputeQuotaId": "q1", "Name": "team-x", "ClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456",
    "Status": "Created", "ComputeQuotaConfig": {"ComputeQuotaResources": g5,
    "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 50}, "PreemptTeamTasks": "LowerPriority"},
    "ComputeQuotaTarget": {"TeamName": "team-x", "FairShareWeight": 10}, "ActivationState": "Enabled"}).encode())
put("hyperpod", "list", b"\x00" + json.dumps({"ComputeQuotaSummaries": [
    {"ComputeQuotaArn": "arn:q2", "ComputeQuotaId": "q2", "Name": "t", "Status": "Created",
     "ClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456",
     "ComputeQuotaConfig": {"ComputeQuotaResources": g5}, "ComputeQuotaTarget": {"TeamName": "t"}}],
    "NextToken": "x"}).encode())
