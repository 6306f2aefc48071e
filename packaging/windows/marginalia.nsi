; NSIS installer for Marginalia on Windows (64-bit).
;
;   makensis -WX -DVERSION=0.1.0 -DVERSION_NUM=0.1.0.0 -DPAYLOAD=dist\marginalia ^
;            -DICON=build\icons\marginalia.ico -DOUTFILE=dist\Marginalia-0.1.0-win64-setup.exe ^
;            packaging\windows\marginalia.nsi
;
; PAYLOAD is the PyInstaller one-folder bundle (marginalia.exe for the console,
; marginalia-gui.exe without one, _internal\). Installs for all users under Program Files,
; adds a Start-menu shortcut, an Apps & features entry with an uninstaller, and "Open with"
; associations for .bib, .ris and .nbib files (made the default only where no program claims them).
; packaging/windows/check_nsis.sh compiles this on Linux against a placeholder payload.

Unicode true
ManifestDPIAware true
SetCompressor /SOLID lzma
RequestExecutionLevel admin

!ifndef VERSION
  !error "pass -DVERSION=x.y.z"
!endif
!ifndef VERSION_NUM
  !define VERSION_NUM "${VERSION}.0"
!endif
!ifndef PAYLOAD
  !define PAYLOAD "..\..\dist\marginalia"
!endif
!ifndef ICON
  !define ICON "..\..\build\icons\marginalia.ico"
!endif
!ifndef OUTFILE
  !define OUTFILE "Marginalia-${VERSION}-win64-setup.exe"
!endif

!define APP_NAME "Marginalia"
!define APP_ID "org.marginalia.Marginalia"
!define PUBLISHER "Marginalia developers"
!define GUI_EXE "marginalia-gui.exe"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${APP_ID}"
!define CLASSES "Software\Classes"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "x64.nsh"
!include "FileFunc.nsh"

Name "${APP_NAME} ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\${APP_NAME}"
InstallDirRegKey HKLM "${UNINST_KEY}" "InstallLocation"
BrandingText "${APP_NAME} ${VERSION}"

VIProductVersion "${VERSION_NUM}"
VIAddVersionKey "ProductName" "${APP_NAME}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "FileDescription" "${APP_NAME} installer"
VIAddVersionKey "CompanyName" "${PUBLISHER}"
VIAddVersionKey "LegalCopyright" "Copyright (c) ${PUBLISHER}. MIT License."

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
; "Start Marginalia" on the finish page: the installer runs elevated (admin), and a program it
; starts directly inherits that token (files it writes belong to the administrator, drag and
; drop from Explorer is refused). LaunchUnelevated hands the program to Explorer instead, which
; starts it as the signed-in user, unelevated.
!define MUI_FINISHPAGE_RUN ""
!define MUI_FINISHPAGE_RUN_TEXT "Start ${APP_NAME}"
!define MUI_FINISHPAGE_RUN_FUNCTION LaunchUnelevated

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

; --- file associations ------------------------------------------------------------------
; EXT: .bib; PROGID: Marginalia.bib; DESC: shown in Explorer
!macro Associate EXT PROGID DESC MIME
  WriteRegStr HKLM "${CLASSES}\${PROGID}" "" "${DESC}"
  WriteRegStr HKLM "${CLASSES}\${PROGID}\DefaultIcon" "" "$INSTDIR\${GUI_EXE},0"
  WriteRegStr HKLM "${CLASSES}\${PROGID}\shell\open\command" "" '"$INSTDIR\${GUI_EXE}" gui "%1"'
  WriteRegStr HKLM "${CLASSES}\${EXT}\OpenWithProgids" "${PROGID}" ""
  WriteRegStr HKLM "${CLASSES}\Applications\${GUI_EXE}\SupportedTypes" "${EXT}" ""
  ReadRegStr $0 HKCR "${EXT}" ""
  ${If} $0 == ""
    WriteRegStr HKLM "${CLASSES}\${EXT}" "" "${PROGID}"
    WriteRegStr HKLM "${CLASSES}\${EXT}" "Content Type" "${MIME}"
  ${EndIf}
!macroend

!macro Unassociate EXT PROGID
  DeleteRegValue HKLM "${CLASSES}\${EXT}\OpenWithProgids" "${PROGID}"
  ReadRegStr $0 HKLM "${CLASSES}\${EXT}" ""
  ${If} $0 == "${PROGID}"
    DeleteRegValue HKLM "${CLASSES}\${EXT}" ""
  ${EndIf}
  DeleteRegKey /ifempty HKLM "${CLASSES}\${EXT}\OpenWithProgids"
  DeleteRegKey HKLM "${CLASSES}\${PROGID}"
!macroend

Function LaunchUnelevated
  Exec '"$WINDIR\explorer.exe" "$INSTDIR\${GUI_EXE}"'
FunctionEnd

Function .onInit
  ${IfNot} ${RunningX64}
    MessageBox MB_ICONSTOP "${APP_NAME} needs 64-bit Windows." /SD IDOK
    Abort
  ${EndIf}
  SetRegView 64
FunctionEnd

Function un.onInit
  SetRegView 64
FunctionEnd

Section "Install"
  SetShellVarContext all
  ; replace an earlier version's files completely (its uninstaller entry is overwritten below)
  ${If} ${FileExists} "$INSTDIR\_internal\*.*"
    RMDir /r "$INSTDIR\_internal"
  ${EndIf}
  SetOutPath "$INSTDIR"
  File /r "${PAYLOAD}\*.*"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortcut "$SMPROGRAMS\${APP_NAME}.lnk" "$INSTDIR\${GUI_EXE}" "" "$INSTDIR\${GUI_EXE}" 0 \
    SW_SHOWNORMAL "" "Read, tag and annotate paper abstracts"

  !insertmacro Associate ".bib" "Marginalia.bib" "BibTeX bibliography" "text/x-bibtex"
  !insertmacro Associate ".ris" "Marginalia.ris" "RIS bibliography" "application/x-research-info-systems"
  !insertmacro Associate ".nbib" "Marginalia.nbib" "PubMed/MEDLINE bibliography" "application/nbib"
  WriteRegStr HKLM "${CLASSES}\Applications\${GUI_EXE}" "FriendlyAppName" "${APP_NAME}"

  WriteRegStr HKLM "${UNINST_KEY}" "DisplayName" "${APP_NAME}"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINST_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${GUI_EXE},0"
  WriteRegStr HKLM "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKLM "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKLM "${UNINST_KEY}" "EstimatedSize" $0

  ; tell Explorer the associations changed (SHCNE_ASSOCCHANGED)
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
SectionEnd

Section "Uninstall"
  SetShellVarContext all
  Delete "$SMPROGRAMS\${APP_NAME}.lnk"
  !insertmacro Unassociate ".bib" "Marginalia.bib"
  !insertmacro Unassociate ".ris" "Marginalia.ris"
  !insertmacro Unassociate ".nbib" "Marginalia.nbib"
  DeleteRegKey HKLM "${CLASSES}\Applications\${GUI_EXE}"
  DeleteRegKey HKLM "${UNINST_KEY}"

  ; only what the installer put there: the user's libraries live elsewhere (AppData)
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\marginalia.exe"
  Delete "$INSTDIR\${GUI_EXE}"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
SectionEnd
