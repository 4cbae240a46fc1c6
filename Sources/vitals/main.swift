import VitalsCLI

VitalsCommand.main()
