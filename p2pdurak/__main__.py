from p2pdurak.cli import main

raise SystemExit(main())
