#!/usr/bin/env bash
# Runs the security differential (Regimen vs Google's Firestore emulator) for CI.
# Says plainly when it is skipped (no emulator, no Java, no driver); fails on any disagreement.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x /usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator ] || ! command -v java >/dev/null; then
  echo "security differential: SKIPPED (the Firestore emulator or Java is not installed on this machine)"
  exit 0
fi
if [ ! -f scripts/emulator/firestore_emulator.py ]; then
  echo "security differential: SKIPPED (scripts/emulator/firestore_emulator.py, the emulator driver, is missing)"
  exit 0
fi
binary=.build/debug/regimen
[ -x "$binary" ] || swift build --product regimen >/dev/null
python3 scripts/emulator/differential.py --regimen "$binary" --generated "${SECURITY_DIFFERENTIAL_REQUESTS:-10000}" --seed "${SECURITY_DIFFERENTIAL_SEED:-1}"
