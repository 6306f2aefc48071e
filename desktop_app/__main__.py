from desktop_app.cli import main

raise SystemExit(main())
