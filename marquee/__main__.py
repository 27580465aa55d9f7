from marquee.cli import main

main()
