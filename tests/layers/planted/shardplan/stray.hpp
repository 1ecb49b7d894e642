// Planted for the layer test: a header beside the umbrella header, outside every layer folder.
#pragma once
