// LLaMA-2 (7B, 13B, 70B) and LLaMA-3 (8B, 70B, 405B) as model shapes.
#pragma once

#include <shardplan/models/model.hpp>

namespace shardplan::models {

// Every LLaMA here: pre-RMSNorm, SwiGLU MLP (gate, up, down), RoPE (no learned positions), no
// biases, output projection separate from the input embedding, head_dim 128.

/// LLaMA-2 7B. Touvron et al. 2023 (arXiv:2307.09288) Table 1 and Hugging Face
/// `meta-llama/Llama-2-7b-hf` config.json: 32 layers, hidden 4096, intermediate 11008, 32 heads,
/// 32 KV heads (MHA), vocab 32000, tie_word_embeddings false.
struct llama2_7b {
  static constexpr model_shape shape = {
      .name = "llama2-7b",
      .layers = 32,
      .d_model = 4096,
      .d_ff = 11008,
      .heads = 32,
      .kv_heads = 32,
      .head_dim = 128,
      .vocab = 32000,
  };
};

/// LLaMA-2 13B. Touvron et al. 2023 Table 1 and Hugging Face `meta-llama/Llama-2-13b-hf`
/// config.json: 40 layers, hidden 5120, intermediate 13824, 40 heads, 40 KV heads, vocab 32000.
struct llama2_13b {
  static constexpr model_shape shape = {
      .name = "llama2-13b",
      .layers = 40,
      .d_model = 5120,
      .d_ff = 13824,
      .heads = 40,
      .kv_heads = 40,
      .head_dim = 128,
      .vocab = 32000,
  };
};

/// LLaMA-2 70B. Touvron et al. 2023 Table 1 (GQA) and Hugging Face `meta-llama/Llama-2-70b-hf`
/// config.json: 80 layers, hidden 8192, intermediate 28672, 64 heads, 8 KV heads, vocab 32000.
struct llama2_70b {
  static constexpr model_shape shape = {
      .name = "llama2-70b",
      .layers = 80,
      .d_model = 8192,
      .d_ff = 28672,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
  };
};

/// LLaMA-3 8B. Dubey et al. 2024, "The Llama 3 Herd of Models" (arXiv:2407.21783) Table 3:
/// 32 layers, model dim 4096, FFN dim 14336, 32 heads, 8 KV heads; vocabulary 128,256 tokens
/// (128K BPE plus 256 reserved special tokens; Hugging Face `meta-llama/Meta-Llama-3-8B`
/// config.json).
struct llama3_8b {
  static constexpr model_shape shape = {
      .name = "llama3-8b",
      .layers = 32,
      .d_model = 4096,
      .d_ff = 14336,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 128256,
  };
};

/// LLaMA-3 70B. Dubey et al. 2024 Table 3: 80 layers, model dim 8192, FFN dim 28672, 64 heads,
/// 8 KV heads; vocab 128,256 (Hugging Face `meta-llama/Meta-Llama-3-70B` config.json).
struct llama3_70b {
  static constexpr model_shape shape = {
      .name = "llama3-70b",
      .layers = 80,
      .d_model = 8192,
      .d_ff = 28672,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 128256,
  };
};

/// LLaMA-3 405B. Dubey et al. 2024 Table 3: 126 layers, model dim 16384, FFN dim 53248, 128 heads,
/// 8 KV heads; vocab 128,256 (Hugging Face `meta-llama/Llama-3.1-405B` config.json).
struct llama3_405b {
  static constexpr model_shape shape = {
      .name = "llama3-405b",
      .layers = 126,
      .d_model = 16384,
      .d_ff = 53248,
      .heads = 128,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 128256,
  };
};

}  // namespace shardplan::models
