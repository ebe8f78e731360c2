#!/bin/bash
# Measures Schedule.nextBoundary with 100k messages (release build).
exec "$(dirname "$0")/model-timing.sh" scripts/schedule-benchmark.swift \
    --with Benchmarks/Benchmarks/FrameBenchmarks/ScheduleSamples.swift
