{{/*
Name of the chart, overridable with nameOverride.
*/}}
{{- define "gongzhu-service.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified app name, at most 63 characters (DNS label). A release name that
already contains the chart name is used as is.
*/}}
{{- define "gongzhu-service.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Chart name and version for the helm.sh/chart label.
*/}}
{{- define "gongzhu-service.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "gongzhu-service.labels" -}}
helm.sh/chart: {{ include "gongzhu-service.chart" . }}
{{ include "gongzhu-service.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Selector labels: stable across upgrades.
*/}}
{{- define "gongzhu-service.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gongzhu-service.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
ServiceAccount name.
*/}}
{{- define "gongzhu-service.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "gongzhu-service.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Image reference: repository:tag, the tag defaulting to the chart's appVersion.
*/}}
{{- define "gongzhu-service.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/*
Fewest pods the release runs with: autoscaling.minReplicas under an HPA, else replicaCount.
*/}}
{{- define "gongzhu-service.minPods" -}}
{{- if .Values.autoscaling.enabled }}
{{- .Values.autoscaling.minReplicas | int }}
{{- else }}
{{- .Values.replicaCount | int }}
{{- end }}
{{- end }}

{{/*
Where the pod's one writable volume (in memory) is mounted: gunicorn's heartbeat files and the metric files.
*/}}
{{- define "gongzhu-service.tmpDir" -}}
/tmp
{{- end }}

{{/*
The run directory of `gongzhu-service serve` (GONGZHU_RUN_DIR), on a volume of the node's disk: nginx's
configuration, gunicorn's socket, and the request bodies nginx holds while they arrive.
*/}}
{{- define "gongzhu-service.runDir" -}}
/run/gongzhu
{{- end }}

{{/*
Seconds serve may take to stop once SIGTERM comes ($GONGZHU_STOP_SECONDS, shared between nginx and gunicorn by
gongzhu.server.front.StopBudget): the grace period, less the preStop sleep that comes first and 2 s for the
kubelet's SIGKILL to be late rather than early. At least 5: each stage gets a second.
*/}}
{{- define "gongzhu-service.stopSeconds" -}}
{{- $stop := sub (sub (int .Values.terminationGracePeriodSeconds) (int .Values.preStopSleepSeconds)) 2 }}
{{- if lt $stop 5 }}
{{- fail (printf "terminationGracePeriodSeconds must exceed preStopSleepSeconds by at least 7 (it leaves serve %d s to stop)" $stop) }}
{{- end }}
{{- $stop }}
{{- end }}
