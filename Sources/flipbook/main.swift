import FlipbookCLI

await FlipbookCommand.main()
