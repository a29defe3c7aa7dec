{{/* Name prefix of every object: <release>-workcell. */}}
{{- define "workcell.name" -}}
{{- printf "%s-workcell" .Release.Name | trunc 48 | trimSuffix "-" -}}
{{- end -}}

{{- define "workcell.labels" -}}
app.kubernetes.io/part-of: workcell
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{/* The Secret with every generated or supplied secret value. */}}
{{- define "workcell.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "workcell.name" .)) -}}
{{- end -}}

{{- define "workcell.image" -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .service (.root.Values.image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}

{{/* Whether a service is deployed: Work services only with work.enabled. */}}
{{- define "workcell.serviceEnabled" -}}
{{- if or (not .spec.work) .root.Values.work.enabled -}}true{{- end -}}
{{- end -}}

{{- define "workcell.natsUrl" -}}
{{- .Values.nats.external.url | default (printf "nats://%s-nats:4222" (include "workcell.name" .)) -}}
{{- end -}}

{{/* The env var that carries a NATS user's password into the NATS server (nats.conf $VARIABLE). */}}
{{- define "workcell.natsPasswordVar" -}}
{{- printf "NATS_PASSWORD_%s" (. | upper | replace "-" "_") -}}
{{- end -}}

{{/* Pod and container security context of every Workcell service (the compose stack's, field for field). */}}
{{- define "workcell.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}
{{- define "workcell.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}
