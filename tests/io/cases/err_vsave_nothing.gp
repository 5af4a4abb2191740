vsave "new.h5"
