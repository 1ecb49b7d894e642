// Planted for the layer test: a quoted relative include of a higher layer, and one of a lower
// layer (allowed).
#pragma once
#include "../hardware/upward.hpp"
#include "../serving/kv_cache.hpp"
