#!/usr/bin/env bash
# The nutrition property over the FULL grid of Tests/RegimenCoachingTests/NutritionGrid.swift
# (2 sexes × 24 weights × 4 goals × 3 experience levels × 3 budgets × 17 diets × 5 meal counts =
# 146,880 profiles); `swift test` runs every 139th of them. Release build: the debug one would take
# hours. Prints meals with options per diet and fails on any meal without options (unless its
# exclusions leave a category without sources) or any combination outside its band.
#
#   scripts/nutrition-grid.sh            # the full grid
set -euo pipefail
cd "$(dirname "$0")/.."
export REGIMEN_NUTRITION_GRID=full
swift test -c release -Xswiftc -enable-testing --filter 'NutritionPropertyTests' 2>&1 | grep -v '^\[' | grep -v '^↳ ///' 
