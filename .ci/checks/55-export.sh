#!/usr/bin/env bash
# `loupe export` read by what others wrote (Tests/export/test_export.py): every OTLP/JSON line
# parsed as ExportTraceServiceRequest by the official OpenTelemetry protos (opentelemetry-proto,
# protobuf's json_format) plus hex ids, lowerCamelCase keys and integer enums checked by hand;
# every .pftrace parsed by perfetto's perfetto_trace_pb2 (tracks, balanced slices, both ends of
# every flow); OTLP/HTTP delivered to a standard-library receiver on 127.0.0.1 that decodes
# bodies with the official proto: whole, after 503 twice, and exit 3 when unreachable.
# Costs about 15 s, plus the pip install the first time.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

if ! python3 -c "import opentelemetry.proto.collector.trace.v1.trace_service_pb2, google.protobuf.json_format, perfetto.protos.perfetto.trace.perfetto_trace_pb2" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "opentelemetry-proto>=1.27" "protobuf>=5" "perfetto>=0.9"
fi

bin="$(swift build --show-bin-path)"
if [ ! -x "$bin/loupe" ] || [ ! -x "$bin/loupe-examples" ]; then
  swift build --product loupe
  swift build --product loupe-examples
fi

cd Tests/export
LOUPE_BIN_DIR="$bin" python3 -m unittest -v test_export 2>&1 | tail -n 40
exit "${PIPESTATUS[0]}"
