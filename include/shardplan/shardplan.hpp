// shardplan: plan how a large language model is split across accelerators, checked at compile time.
// The umbrella header: units, hardware and systems, models, formatting and the catalogues.
#pragma once

#include "units.hpp"
#include "format.hpp"
#include "table.hpp"
#include "hardware/chip.hpp"
#include "hardware/system.hpp"
#include "hardware/tpu.hpp"
#include "hardware/nvidia.hpp"
#include "hardware/amd.hpp"
#include "hardware/cpu.hpp"
#include "hardware/systems.hpp"
#include "hardware/catalog.hpp"
#include "models/model.hpp"
#include "models/parameters.hpp"
#include "models/gpt.hpp"
#include "models/llama.hpp"
#include "models/mixtral.hpp"
#include "models/deepseek.hpp"
#include "models/catalog.hpp"
#include "catalog.hpp"
