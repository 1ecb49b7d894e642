// What the compile-fail rules include, precompiled once for all of them (tests/CMakeLists.txt).
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/system_rules.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/models/deepseek.hpp>
#include <shardplan/models/gpt.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/models/mixtral.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/search/search.hpp>
#include <shardplan/serving/serving_plan.hpp>
#include <shardplan/training/training_plan.hpp>
