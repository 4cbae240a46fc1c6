import VitalsCLI

VitalsCommand.runAndExit()
