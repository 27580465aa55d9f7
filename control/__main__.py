from control.cli import main

main()
