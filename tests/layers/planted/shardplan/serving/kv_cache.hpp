// Planted for the layer test: the target of relative.hpp's include.
#pragma once
