NGPU=8 MODULE=llama3 CONFIG=llama3_8b ./run_train.sh
