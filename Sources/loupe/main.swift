import LoupeCLI
