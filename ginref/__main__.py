from ginref.cli import main

main()
