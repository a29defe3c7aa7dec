#!/bin/bash
# Installs helm/workcell on a kind cluster from locally built images and runs the Open Terminal client
# checks against it. Needs docker, kind, kubectl, helm and python3; run from anywhere in the repo.
#   helm/kind-check.sh            # cluster "workcell", kept afterwards
#   KIND_CLUSTER=x KEEP=0 helm/kind-check.sh
# The Open Terminal checks that need a sandbox run it on the Kubernetes driver (a Pod and PVC, celld over
# pods/exec, terminals as celld PTY sessions on that exec). A Pod has no process limit of its own: the
# cluster is made with the kubelet's podPidsLimit (the Docker profile's 256, decision 0022).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLUSTER=${KIND_CLUSTER:-workcell}
NS=${WORKCELL_NAMESPACE:-workcell}
RELEASE=${WORKCELL_RELEASE:-wc}
KEEP=${KEEP:-1}
PORT=${WORKCELL_KIND_PORT:-18580}

version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$ROOT/pom.xml" | head -1)
images=(gateway-service task-service agent-runner-service sandbox-service preview-proxy-service
  terminal-service sandbox-mirror cli compose-init nats postgres)

echo "== images (bin/workcell images --infra)"
"$ROOT/bin/workcell" images --infra

PIDS=${WORKCELL_POD_PIDS_LIMIT:-256}
if ! kind get clusters | grep -qx "$CLUSTER"; then
  kind create cluster --name "$CLUSTER" --config - <<EOF
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: control-plane
    kubeadmConfigPatches:
      - |
        kind: KubeletConfiguration
        podPidsLimit: $PIDS
EOF
fi
node=$(kubectl get nodes -o jsonpath='{.items[0].metadata.name}')
configz=$(kubectl get --raw "/api/v1/nodes/$node/proxy/configz")
[[ $configz == *"\"podPidsLimit\":$PIDS"* ]] \
  || echo "WARN: the kubelet of $node has no podPidsLimit $PIDS (an existing cluster?): sandbox Pods have no process limit" >&2
# kind's default CNI (kindnet) enforces NetworkPolicies from v0.24 on; older ones need Calico.
for image in "${images[@]}"; do
  kind load docker-image --name "$CLUSTER" "workcell/$image:$version"
done
kind load docker-image --name "$CLUSTER" "${WORK_RUNTIME_IMAGE:-workcell/sandbox:dev}" || true

echo "== install"
helm upgrade --install "$RELEASE" "$ROOT/helm/workcell" --namespace "$NS" --create-namespace --wait --timeout 10m \
  --set image.tag="$version" --set image.pullPolicy=Never \
  --set nats.image="workcell/nats:$version" --set postgresql.image="workcell/postgres:$version" --set postgresql.uid=999 \
  --set s3.mode=none
kubectl -n "$NS" get pods

echo "== upgrade keeps the generated secrets"
before=$(kubectl -n "$NS" get secret "$RELEASE-workcell-secrets" -o jsonpath='{.data.nats-gateway}')
helm upgrade "$RELEASE" "$ROOT/helm/workcell" --namespace "$NS" --reuse-values --wait --timeout 10m
after=$(kubectl -n "$NS" get secret "$RELEASE-workcell-secrets" -o jsonpath='{.data.nats-gateway}')
[[ $before == "$after" ]] || { echo "FAIL: the upgrade replaced the NATS password" >&2; exit 1; }

echo "== token"
job=$RELEASE-workcell-token-check
kubectl -n "$NS" delete job "$job" --ignore-not-found
kubectl -n "$NS" create job --from="cronjob/$RELEASE-workcell-token" "$job"
kubectl -n "$NS" wait --for=condition=complete --timeout=120s "job/$job"
token=$(kubectl -n "$NS" logs "job/$job" -c cli | tail -1)
key=$(kubectl -n "$NS" get secret "$RELEASE-workcell-secrets" -o jsonpath='{.data.terminal-server-key}' | base64 -d)

kubectl -n "$NS" port-forward "svc/$RELEASE-workcell-gateway-service" "$PORT:8080" >/dev/null 2>&1 &
forward=$!
trap 'kill "$forward" 2>/dev/null || true' EXIT
sleep 3
curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT/api/auth/me"; echo

echo "== Open Terminal client checks"
status=0
python3 "$ROOT/bin/lib/e2e/open_terminal_client.py" "http://127.0.0.1:$PORT/api/open-terminal" "$key" || status=$?
[[ $KEEP == 1 ]] || kind delete cluster --name "$CLUSTER"
exit "$status"
