// Planted for the layer test: a hardware header that reaches up into training/.
#pragma once
#include <shardplan/training/plan.hpp>
