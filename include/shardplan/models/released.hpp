// Released models from the Hugging Face config.json they are published with (examples/models/,
// with each copy's source in examples/models/SOURCES.md): the same shapes as constexpr values.
// Every one is SwiGLU, RMSNorm and RoPE; a test reads each config and checks it gives this shape.
#pragma once

#include <shardplan/models/model.hpp>

namespace shardplan::models {

/// Qwen3 0.6B (Qwen/Qwen3-0.6B): 28 layers, hidden 1024, intermediate 3072, 16 heads, 8 KV heads of
/// head_dim 128, vocab 151936, tied embeddings; Qwen3Attention's q_norm and k_norm over head_dim.
/// `examples/models/qwen3-0.6b.json`.
struct qwen3_0_6b {
  static constexpr model_shape shape = {
      .name = "qwen3-0.6b",
      .layers = 28,
      .d_model = 1024,
      .d_ff = 3072,
      .heads = 16,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 151936,
      .tied_embeddings = true,
      .qk_norm = qk_norm_kind::per_head,
  };
};

/// Qwen3 1.7B (Qwen/Qwen3-1.7B): 28 layers, hidden 2048, intermediate 6144, 16 heads, 8 KV heads of
/// 128, vocab 151936, tied; q/k norms. `examples/models/qwen3-1.7b.json`.
struct qwen3_1_7b {
  static constexpr model_shape shape = {
      .name = "qwen3-1.7b",
      .layers = 28,
      .d_model = 2048,
      .d_ff = 6144,
      .heads = 16,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 151936,
      .tied_embeddings = true,
      .qk_norm = qk_norm_kind::per_head,
  };
};

/// Qwen3 8B (Qwen/Qwen3-8B): 36 layers, hidden 4096, intermediate 12288, 32 heads, 8 KV heads of
/// 128, vocab 151936, untied; q/k norms. `examples/models/qwen3-8b.json`.
struct qwen3_8b {
  static constexpr model_shape shape = {
      .name = "qwen3-8b",
      .layers = 36,
      .d_model = 4096,
      .d_ff = 12288,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 151936,
      .qk_norm = qk_norm_kind::per_head,
  };
};

/// Qwen3 32B (Qwen/Qwen3-32B): 64 layers, hidden 5120, intermediate 25600, 64 heads, 8 KV heads of
/// 128, vocab 151936, untied; q/k norms. `examples/models/qwen3-32b.json`.
struct qwen3_32b {
  static constexpr model_shape shape = {
      .name = "qwen3-32b",
      .layers = 64,
      .d_model = 5120,
      .d_ff = 25600,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 151936,
      .qk_norm = qk_norm_kind::per_head,
  };
};

/// Qwen3 30B-A3B (Qwen/Qwen3-30B-A3B): 48 layers, hidden 2048, 32 heads, 4 KV heads of 128, vocab
/// 151936, untied; every layer MoE (decoder_sparse_step 1, no mlp_only_layers) of 128 experts, top
/// 8, moe_intermediate_size 768, no shared expert, router without bias; q/k norms.
/// `examples/models/qwen3-30b-a3b.json`.
struct qwen3_30b_a3b {
  static constexpr model_shape shape = {
      .name = "qwen3-30b-a3b",
      .layers = 48,
      .d_model = 2048,
      .heads = 32,
      .kv_heads = 4,
      .head_dim = 128,
      .vocab = 151936,
      .moe = {.experts = 128, .top_k = 8, .expert_d_ff = 768},
      .qk_norm = qk_norm_kind::per_head,
  };
};

/// Qwen3 235B-A22B (Qwen/Qwen3-235B-A22B): 94 layers, hidden 4096, 64 heads, 4 KV heads of 128,
/// vocab 151936, untied; every layer MoE of 128 experts, top 8, width 1536; q/k norms.
/// `examples/models/qwen3-235b-a22b.json`.
struct qwen3_235b_a22b {
  static constexpr model_shape shape = {
      .name = "qwen3-235b-a22b",
      .layers = 94,
      .d_model = 4096,
      .heads = 64,
      .kv_heads = 4,
      .head_dim = 128,
      .vocab = 151936,
      .moe = {.experts = 128, .top_k = 8, .expert_d_ff = 1536},
      .qk_norm = qk_norm_kind::per_head,
  };
};

/// Qwen2.5 7B (Qwen/Qwen2.5-7B): 28 layers, hidden 3584, intermediate 18944, 28 heads, 4 KV heads
/// (head_dim 128), vocab 152064, untied; Qwen2Attention's biases on q, k and v (not o);
/// use_sliding_window false. `examples/models/qwen2.5-7b.json`.
struct qwen2_5_7b {
  static constexpr model_shape shape = {
      .name = "qwen2.5-7b",
      .layers = 28,
      .d_model = 3584,
      .d_ff = 18944,
      .heads = 28,
      .kv_heads = 4,
      .head_dim = 128,
      .vocab = 152064,
      .qkv_bias = true,
  };
};

/// Llama 3.1 8B (meta-llama/Meta-Llama-3.1-8B): 32 layers, hidden 4096, intermediate 14336, 32
/// heads, 8 KV heads, vocab 128256, untied, no biases: LLaMA-3 8B's shape.
/// `examples/models/llama3.1-8b.json`.
struct llama3_1_8b {
  static constexpr model_shape shape = {
      .name = "llama3.1-8b",
      .layers = 32,
      .d_model = 4096,
      .d_ff = 14336,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 128256,
  };
};

/// Mistral 7B v0.1 (mistralai/Mistral-7B-v0.1; Jiang et al. 2023, arXiv:2310.06825, Table 1): 32
/// layers, hidden 4096, intermediate 14336, 32 heads, 8 KV heads, vocab 32000, untied; every layer
/// slides over a 4096-token window. `examples/models/mistral-7b-v0.1.json`.
struct mistral_7b_v0_1 {
  static constexpr model_shape shape = {
      .name = "mistral-7b-v0.1",
      .layers = 32,
      .d_model = 4096,
      .d_ff = 14336,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
      .local = {.window = 4096},
  };
};

/// Mixtral 8x22B (mistralai/Mixtral-8x22B-v0.1): 56 layers, hidden 6144, 48 heads, 8 KV heads,
/// vocab 32000, untied; every layer 8 experts of width 16384, top 2; no sliding window.
/// `examples/models/mixtral-8x22b.json`.
struct mixtral_8x22b {
  static constexpr model_shape shape = {
      .name = "mixtral-8x22b",
      .layers = 56,
      .d_model = 6144,
      .heads = 48,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 16384},
  };
};

/// Gemma 2 9B (google/gemma-2-9b-it; Gemma Team 2024, arXiv:2408.00118, Table 1): 42 layers, hidden
/// 3584, intermediate 14336, 16 heads, 8 KV heads of head_dim 256, vocab 256000, tied; four norms a
/// layer (pre and post, attention and MLP); every other layer (the first) slides over 4096 tokens.
/// `examples/models/gemma2-9b-it.json`.
struct gemma2_9b {
  static constexpr model_shape shape = {
      .name = "gemma2-9b",
      .layers = 42,
      .d_model = 3584,
      .d_ff = 14336,
      .heads = 16,
      .kv_heads = 8,
      .head_dim = 256,
      .vocab = 256000,
      .tied_embeddings = true,
      .local = {.window = 4096, .global_every = 2},
      .layer_norms = 4,
  };
};

/// gpt-oss-20b (openai/gpt-oss-20b): 24 layers, hidden 2880, 64 heads, 8 KV heads of 64, vocab
/// 201088, untied; every layer 32 experts of width 2880, top 4, with biases, a router with a bias;
/// biases on q, k, v and o; a sink per head; alternating layers (the first) slide over 128 tokens.
/// `examples/models/gpt-oss-20b.json`.
struct gpt_oss_20b {
  static constexpr model_shape shape = {
      .name = "gpt-oss-20b",
      .layers = 24,
      .d_model = 2880,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 64,
      .vocab = 201088,
      .biases = true,
      .moe = {.experts = 32, .top_k = 4, .expert_d_ff = 2880, .router_bias = true},
      .local = {.window = 128, .global_every = 2},
      .attention_sinks = true,
  };
};

/// gpt-oss-120b (openai/gpt-oss-120b): as gpt-oss-20b with 36 layers and 128 experts.
/// `examples/models/gpt-oss-120b.json`.
struct gpt_oss_120b {
  static constexpr model_shape shape = {
      .name = "gpt-oss-120b",
      .layers = 36,
      .d_model = 2880,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 64,
      .vocab = 201088,
      .biases = true,
      .moe = {.experts = 128, .top_k = 4, .expert_d_ff = 2880, .router_bias = true},
      .local = {.window = 128, .global_every = 2},
      .attention_sinks = true,
  };
};

/// Phi-3-mini-4k-instruct (microsoft/Phi-3-mini-4k-instruct; arXiv:2404.14219): 32 layers, hidden
/// 3072, intermediate 8192, 32 heads of 96 (MHA), vocab 32064, untied; every layer slides over 2047
/// tokens. `examples/models/phi3-mini-4k.json`.
struct phi3_mini_4k {
  static constexpr model_shape shape = {
      .name = "phi3-mini-4k",
      .layers = 32,
      .d_model = 3072,
      .d_ff = 8192,
      .heads = 32,
      .kv_heads = 32,
      .head_dim = 96,
      .vocab = 32064,
      .local = {.window = 2047},
  };
};

/// OLMo 2 13B (allenai/OLMo-2-1124-13B): 40 layers, hidden 5120, intermediate 13824, 40 heads (MHA)
/// of 128, vocab 100352, untied; post-norms only (two a layer); q_norm over all heads and k_norm
/// over all kv heads. `examples/models/olmo2-13b.json`.
struct olmo2_13b {
  static constexpr model_shape shape = {
      .name = "olmo2-13b",
      .layers = 40,
      .d_model = 5120,
      .d_ff = 13824,
      .heads = 40,
      .kv_heads = 40,
      .head_dim = 128,
      .vocab = 100352,
      .qk_norm = qk_norm_kind::whole,
  };
};

/// Llama 3.1 70B (meta-llama/Meta-Llama-3.1-70B): 80 layers, hidden 8192, intermediate 28672, 64
/// heads, 8 KV heads, vocab 128256, untied: LLaMA-3 70B's shape. `examples/models/llama3.1-70b.json`.
struct llama3_1_70b {
  static constexpr model_shape shape = {
      .name = "llama3.1-70b",
      .layers = 80,
      .d_model = 8192,
      .d_ff = 28672,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 128256,
  };
};

/// Llama 3.1 405B (meta-llama/Meta-Llama-3.1-405B): 126 layers, hidden 16384, intermediate 53248,
/// 128 heads, 8 KV heads, vocab 128256, untied. `examples/models/llama3.1-405b.json`.
struct llama3_1_405b {
  static constexpr model_shape shape = {
      .name = "llama3.1-405b",
      .layers = 126,
      .d_model = 16384,
      .d_ff = 53248,
      .heads = 128,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 128256,
  };
};

/// Qwen3-Coder 480B-A35B (Qwen/Qwen3-Coder-480B-A35B-Instruct): 62 layers, hidden 6144, 96 heads,
/// 8 KV heads of 128, vocab 151936, untied; every layer MoE of 160 experts, top 8, width 2560, no
/// shared expert; q/k norms. `examples/models/qwen3-coder-480b-a35b.json`.
struct qwen3_coder_480b_a35b {
  static constexpr model_shape shape = {
      .name = "qwen3-coder-480b-a35b",
      .layers = 62,
      .d_model = 6144,
      .heads = 96,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 151936,
      .moe = {.experts = 160, .top_k = 8, .expert_d_ff = 2560},
      .qk_norm = qk_norm_kind::per_head,
  };
};

/// Kimi K2 (moonshotai/Kimi-K2-Instruct), DeepSeek-V3's architecture: 61 layers, hidden 7168, 64
/// heads with MLA (q rank 1536, kv rank 512, 128 + 64 query/key and 128 value widths), vocab
/// 163840, untied; one leading dense layer of 18432, then 384 experts of 2048, top 8, one shared,
/// a router with the balance bias (topk_method noaux_tc). `examples/models/kimi-k2.json`.
struct kimi_k2 {
  static constexpr model_shape shape = {
      .name = "kimi-k2",
      .layers = 61,
      .d_model = 7168,
      .d_ff = 18432,
      .heads = 64,
      .kv_heads = 64,
      .head_dim = 192,
      .vocab = 163840,
      .moe = {.experts = 384,
              .top_k = 8,
              .shared_experts = 1,
              .expert_d_ff = 2048,
              .dense_layers = 1,
              .router_bias = true},
      .mla = {.q_lora_rank = 1536,
              .kv_lora_rank = 512,
              .qk_nope_head_dim = 128,
              .qk_rope_head_dim = 64,
              .v_head_dim = 128},
  };
};

}  // namespace shardplan::models
