module noisebench

go 1.26
