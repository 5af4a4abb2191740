vload
