module example.com/reductions

go 1.26
