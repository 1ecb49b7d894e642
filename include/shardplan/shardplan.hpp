// shardplan: plan how a large language model is split across accelerators, checked at compile time.
// The umbrella header: every layer but io/, in dependency order (core, hardware, models, training,
// serving, run, search), and io/'s headers that need no JSON library (reports, charts, launch
// configs). The plan-file reader, <shardplan/io/plan_file.hpp>, comes with the shardplan::io target.
#pragma once

#include <shardplan/core/units.hpp>
#include <shardplan/core/format.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/hardware/tpu.hpp>
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/amd.hpp>
#include <shardplan/hardware/cpu.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/catalog.hpp>
#include <shardplan/hardware/system_presets.hpp>
#include <shardplan/hardware/placement.hpp>
#include <shardplan/hardware/collectives.hpp>
#include <shardplan/models/model.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/catalog.hpp>
#include <shardplan/models/activations.hpp>
#include <shardplan/models/flops.hpp>
#include <shardplan/training/precision.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/training/sharding.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/training/bounds.hpp>
#include <shardplan/training/training_plan.hpp>
#include <shardplan/training/plan_builder.hpp>
#include <shardplan/serving/kv_cache.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/serving/engine.hpp>
#include <shardplan/serving/serving_plan.hpp>
#include <shardplan/serving/workload.hpp>
#include <shardplan/run/reliability.hpp>
#include <shardplan/run/energy.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/search/compare.hpp>
#include <shardplan/io/catalog.hpp>
#include <shardplan/io/report.hpp>
#include <shardplan/io/reliability_report.hpp>
#include <shardplan/io/compare_report.hpp>
#include <shardplan/io/search_chart.hpp>
#include <shardplan/io/serving_chart.hpp>
#include <shardplan/io/launch.hpp>
