module example.com/benchprog

go 1.26
