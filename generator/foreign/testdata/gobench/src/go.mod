module example.com/sortbench

go 1.26
