module example.com/realtools/gowork

go 1.26
