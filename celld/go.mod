module workcell.dev/celld

go 1.19
