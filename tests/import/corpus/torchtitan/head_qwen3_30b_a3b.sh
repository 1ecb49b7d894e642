NGPU=8 MODULE=qwen3 CONFIG=qwen3_30b_a3b ./run_train.sh
