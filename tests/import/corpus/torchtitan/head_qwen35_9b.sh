NGPU=8 MODULE=qwen3_5 CONFIG=qwen35_9b ./run_train.sh
