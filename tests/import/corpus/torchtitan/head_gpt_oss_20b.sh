NGPU=8 MODULE=gpt_oss CONFIG=gpt_oss_20b ./run_train.sh
