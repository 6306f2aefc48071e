<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttachController</name>
    <message>
        <source>Opened {0} in the browser</source>
        <translation>已在浏览器中打开 {0}</translation>
    </message>
    <message>
        <source>Select a paper to open it</source>
        <translation>请先选择要打开的论文</translation>
    </message>
    <message>
        <source>This paper has no attached file, arXiv id, DOI or web address to open</source>
        <translation>这篇论文没有可打开的附件、arXiv 编号、DOI 或网址</translation>
    </message>
    <message>
        <source>No browser could open {0}</source>
        <translation>没有浏览器能打开 {0}</translation>
    </message>
    <message>
        <source>The attached file {0} is not there any more ({1})</source>
        <translation>附件 {0} 已不存在（{1}）</translation>
    </message>
    <message>
        <source>{0} looks like a program; Marginalia does not run programs (it is in {1})</source>
        <translation>{0} 看起来是程序；Marginalia 不会运行程序（它位于 {1}）</translation>
    </message>
    <message>
        <source>No application could open {0}</source>
        <translation>没有应用程序能打开 {0}</translation>
    </message>
    <message>
        <source>Opened {0}</source>
        <translation>已打开 {0}</translation>
    </message>
    <message>
        <source>Select a paper to attach a file to it</source>
        <translation>请先选择要添加附件的论文</translation>
    </message>
    <message>
        <source>Attach files to the paper</source>
        <translation>为论文添加附件</translation>
    </message>
    <message>
        <source>PDF files (*.pdf);;All files (*)</source>
        <translation>PDF 文件 (*.pdf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>The library is read-only: nothing can be attached</source>
        <translation>文库为只读：无法添加附件</translation>
    </message>
    <message numerus="yes">
        <source>%n files</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Linked {0} to paper {1}</source>
        <translation>已将 {0} 链接到论文 {1}</translation>
    </message>
    <message>
        <source>Attached {0} to paper {1}</source>
        <translation>已将 {0} 附加到论文 {1}</translation>
    </message>
    <message>
        <source>Attach {0}</source>
        <translation>附加 {0}</translation>
    </message>
    <message>
        <source>Copying {0} into the library…</source>
        <translation>正在将 {0} 复制到文库…</translation>
    </message>
    <message>
        <source>Remove attached file {0}</source>
        <translation>移除附件 {0}</translation>
    </message>
    <message>
        <source>Removed {0} from the paper (Ctrl+Z brings it back)</source>
        <translation>已从论文移除 {0}（Ctrl+Z 可恢复）</translation>
    </message>
    <message>
        <source>{0} is linked to paper {1} when the library&apos;s server is back</source>
        <translation>资料库的服务器恢复后，{0} 将链接到论文 {1}</translation>
    </message>
    <message>
        <source>{0} is removed from the paper when the library&apos;s server is back</source>
        <translation>资料库的服务器恢复后，{0} 将从论文中移除</translation>
    </message>
    <message>
        <source>{0} is copied into the library and attached to paper {1} when the library&apos;s server is back</source>
        <translation>{0} 已复制到资料库，资料库的服务器恢复后将附加到论文 {1}</translation>
    </message>
</context>
<context>
    <name>AttachmentStrip</name>
    <message>
        <source>{0} ({1}) — missing</source>
        <translation>{0}（{1}）— 文件缺失</translation>
    </message>
    <message>
        <source>Attached files</source>
        <translation>附件</translation>
    </message>
    <message>
        <source>Files:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Open with the system&apos;s viewer</source>
        <translation>用系统查看器打开</translation>
    </message>
    <message>
        <source>The file is not there any more</source>
        <translation>文件已不存在</translation>
    </message>
    <message>
        <source> (linked, not copied)</source>
        <translation>（链接，未复制）</translation>
    </message>
    <message>
        <source>Open attached file {0}</source>
        <translation>打开附件 {0}</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Remove from paper</source>
        <translation>从论文移除</translation>
    </message>
</context>
<context>
    <name>AuthorList</name>
    <message>
        <source>Authors</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Drag a name to reorder; double-click to correct it</source>
        <translation>拖动姓名可调整顺序；双击可修改</translation>
    </message>
    <message>
        <source>New author</source>
        <translation>新作者</translation>
    </message>
    <message>
        <source>Add an author: Family, Given (several: separate with ;)</source>
        <translation>添加作者：姓, 名（多位作者用 ; 分隔）</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
</context>
<context>
    <name>BulkPanel</name>
    <message>
        <source>New list…</source>
        <translation>新建列表…</translation>
    </message>
    <message>
        <source>Selected papers</source>
        <translation>所选论文</translation>
    </message>
    <message>
        <source>The edits below apply to every selected paper; each can be undone.</source>
        <translation>以下编辑应用于每篇所选论文，均可撤销。</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>No rating</source>
        <translation>无评分</translation>
    </message>
    <message>
        <source>Rate {0}</source>
        <translation>评为 {0} 星</translation>
    </message>
    <message>
        <source>Tag to add</source>
        <translation>要添加的标签</translation>
    </message>
    <message>
        <source>Tag (a/b for a child tag)</source>
        <translation>标签（a/b 表示子标签）</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <source>Tag to remove</source>
        <translation>要移除的标签</translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation>移除标签</translation>
    </message>
    <message>
        <source>Reading list</source>
        <translation>阅读列表</translation>
    </message>
    <message>
        <source>Add to list</source>
        <translation>加入列表</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <source>Rating:</source>
        <translation>评分：</translation>
    </message>
    <message>
        <source>Add a tag:</source>
        <translation>添加标签：</translation>
    </message>
    <message>
        <source>Remove a tag:</source>
        <translation>移除标签：</translation>
    </message>
    <message>
        <source>Reading list:</source>
        <translation>阅读列表：</translation>
    </message>
    <message numerus="yes">
        <source>%n paper(s) selected</source>
        <translation>
            <numerusform>已选择 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete {0}…</source>
        <translation>删除{0}…</translation>
    </message>
    <message>
        <source>{0} — on {1} of {2}</source>
        <translation>{0} — {2} 篇中的 {1} 篇</translation>
    </message>
    <message>
        <source>(no tags on these papers)</source>
        <translation>（这些论文没有标签）</translation>
    </message>
    <message>
        <source>Marked {0} {1}</source>
        <translation>已将{0}标记为“{1}”</translation>
    </message>
    <message>
        <source>Rated {0} {1}</source>
        <translation>已将{0}评为 {1} 星</translation>
    </message>
    <message>
        <source>Cleared the rating of {0}</source>
        <translation>已清除{0}的评分</translation>
    </message>
    <message>
        <source>Tagged {0} “{1}”</source>
        <translation>已为{0}添加标签“{1}”</translation>
    </message>
    <message>
        <source>Removed the tag “{0}” from {1}</source>
        <translation>已从{1}移除标签“{0}”</translation>
    </message>
    <message>
        <source>Added {0} to “{1}”</source>
        <translation>已将{0}加入“{1}”</translation>
    </message>
    <message>
        <source>Deleted {0}</source>
        <translation>已删除{0}</translation>
    </message>
    <message>
        <source>Decision:</source>
        <translation>决定：</translation>
    </message>
    <message>
        <source>Decided {0} {1}</source>
        <translation>已将{0}决定为“{1}”</translation>
    </message>
    <message>
        <source>Cleared the decision of {0}</source>
        <translation>已清除{0}的决定</translation>
    </message>
</context>
<context>
    <name>CjkFontNotice</name>
    <message>
        <source>Chinese, Japanese or Korean text is drawn as boxes: no installed font covers it. Install one, then restart Marginalia: fonts-noto-cjk (Debian, Ubuntu), google-noto-sans-cjk-fonts (Fedora), noto-fonts-cjk (Arch).</source>
        <translation>中文、日文或韩文显示为方框：没有已安装的字体支持这些字符。请安装一种字体后重新启动 Marginalia：fonts-noto-cjk（Debian、Ubuntu）、google-noto-sans-cjk-fonts（Fedora）、noto-fonts-cjk（Arch）。</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭提示</translation>
    </message>
</context>
<context>
    <name>Common</name>
    <message>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <source>Skimmed</source>
        <translation>略读</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>已读</translation>
    </message>
    <message>
        <source>yellow</source>
        <translation>黄色</translation>
    </message>
    <message>
        <source>green</source>
        <translation>绿色</translation>
    </message>
    <message>
        <source>blue</source>
        <translation>蓝色</translation>
    </message>
    <message>
        <source>pink</source>
        <translation>粉色</translation>
    </message>
    <message>
        <source>purple</source>
        <translation>紫色</translation>
    </message>
    <message>
        <source>same DOI</source>
        <translation>DOI 相同</translation>
    </message>
    <message>
        <source>same arXiv id</source>
        <translation>arXiv 编号相同</translation>
    </message>
    <message>
        <source>same PubMed id</source>
        <translation>PubMed 编号相同</translation>
    </message>
    <message>
        <source>same title, author and year</source>
        <translation>标题、作者和年份相同</translation>
    </message>
    <message>
        <source>the same record</source>
        <translation>同一条记录</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Maybe</source>
        <translation>待定</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Undecided</source>
        <translation>未决定</translation>
    </message>
    <message>
        <source>same abstract</source>
        <translation>摘要相同</translation>
    </message>
    <message>
        <source>same title</source>
        <translation>标题相同</translation>
    </message>
    <message>
        <source>same citation key</source>
        <translation>引用键相同</translation>
    </message>
    <message>
        <source>similar title and abstract</source>
        <translation>标题和摘要相近</translation>
    </message>
</context>
<context>
    <name>ConflictBanner</name>
    <message>
        <source>Changed elsewhere —</source>
        <translation>已在别处更改 —</translation>
    </message>
    <message>
        <source>Another program (the command line, another window) changed this note while you were editing it. Both texts are kept; the other one is in the note&apos;s revisions.</source>
        <translation>你编辑时，另一个程序（命令行或另一个窗口）更改了这条笔记。两份文本都已保留；另一份在笔记的历史版本中。</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Keep mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <source>Take theirs</source>
        <translation>采用对方的</translation>
    </message>
    <message>
        <source>The note as changed elsewhere</source>
        <translation>在别处更改后的笔记</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <source>Connect to a shared library</source>
        <translation>连接共享文库</translation>
    </message>
    <message>
        <source>A library on a PostgreSQL server, shared by a lab. Enter its address (postgresql://user@host/database) or a service name from your pg_service.conf. Passwords are never stored here: put yours in ~/.pgpass.</source>
        <translation>位于 PostgreSQL 服务器上、由实验室共享的文库。请输入其地址（postgresql://user@host/database）或 pg_service.conf 中的服务名。此处从不保存密码：请将密码写入 ~/.pgpass。</translation>
    </message>
    <message>
        <source>Address or service:</source>
        <translation>地址或服务名：</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Enter an address or a service name.</source>
        <translation>请输入地址或服务名。</translation>
    </message>
    <message>
        <source>The password in the address is used now and never saved; put it in ~/.pgpass to connect next time.</source>
        <translation>地址中的密码仅用于本次连接，不会保存；如需下次连接，请将其写入 ~/.pgpass。</translation>
    </message>
    <message>
        <source>This window cannot open another library.</source>
        <translation>此窗口无法打开其他文库。</translation>
    </message>
    <message>
        <source>connected as lin to papers on db.lab.example:5432</source>
        <translation>已以 lin 身份连接到 db.lab.example:5432 上的 papers</translation>
    </message>
</context>
<context>
    <name>DecisionControl</name>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <source>Decide {0}; press again to clear</source>
        <translation>决定为“{0}”；再按一次可清除</translation>
    </message>
</context>
<context>
    <name>DeletedBanner</name>
    <message>
        <source>Restore it</source>
        <translation>恢复它</translation>
    </message>
    <message>
        <source>Save note to a file…</source>
        <translation>将笔记保存到文件…</translation>
    </message>
    <message>
        <source>This paper was deleted elsewhere —</source>
        <translation>这篇论文已在别处被删除 —</translation>
    </message>
    <message>
        <source>The paper of a note you were writing was deleted elsewhere —</source>
        <translation>你正在写的笔记所属的论文已在别处被删除 —</translation>
    </message>
    <message>
        <source>Take the paper out of the trash and store the note</source>
        <translation>将论文移出回收站并保存笔记</translation>
    </message>
    <message>
        <source>The paper was deleted for good; save the note to a file instead</source>
        <translation>这篇论文已被永久删除；请改为将笔记保存到文件</translation>
    </message>
    <message>
        <source>Keep as a new paper</source>
        <translation>保留为新论文</translation>
    </message>
    <message>
        <source>Store the note on a new paper that copies the deleted one&apos;s title, abstract and authors (while it is in the trash)</source>
        <translation>将笔记存到一篇新论文上，新论文复制已删除论文的标题、摘要和作者（当它仍在回收站中时）</translation>
    </message>
</context>
<context>
    <name>DidYouMeanLine</name>
    <message>
        <source>Did you mean:</source>
        <translation>你是不是要找：</translation>
    </message>
    <message>
        <source>Search for this instead</source>
        <translation>改为搜索此项</translation>
    </message>
    <message>
        <source>Did you mean: {0}? Press to search for it</source>
        <translation>你是不是要找：{0}？点击即可搜索</translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message>
        <source>Possible duplicates</source>
        <translation>可能的重复项</translation>
    </message>
    <message>
        <source>Possible duplicate pairs</source>
        <translation>可能重复的论文对</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Paper</source>
        <translation>论文</translation>
    </message>
    <message>
        <source>Possible duplicate</source>
        <translation>可能的重复</translation>
    </message>
    <message>
        <source>The two papers side by side</source>
        <translation>两篇论文并排对照</translation>
    </message>
    <message>
        <source>Tags, reading-list places, highlights and notes of both papers are kept; the other paper goes to the trash. Ctrl+Z in the main window undoes a merge.</source>
        <translation>两篇论文的标签、阅读列表位置、高亮和笔记都会保留；另一篇论文移入回收站。在主窗口按 Ctrl+Z 可撤销合并。</translation>
    </message>
    <message>
        <source>S&amp;wap</source>
        <translation>交换(&amp;W)</translation>
    </message>
    <message>
        <source>Keep the other paper instead (S)</source>
        <translation>改为保留另一篇论文 (S)</translation>
    </message>
    <message>
        <source>&amp;Not duplicates</source>
        <translation>不是重复(&amp;N)</translation>
    </message>
    <message>
        <source>These are two papers; never offer this pair again (N or Delete)</source>
        <translation>这是两篇不同的论文；不再提示这一对（N 或 Delete）</translation>
    </message>
    <message>
        <source>&amp;Merge</source>
        <translation>合并(&amp;M)</translation>
    </message>
    <message>
        <source>Merge the right-hand paper into the kept one (Return)</source>
        <translation>将右侧论文合并到保留的论文中（回车）</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>The import&apos;s own rules call these one paper</source>
        <translation>按导入规则，这两条是同一篇论文</translation>
    </message>
    <message>
        <source>Alike, but the import&apos;s rules do not call them one paper</source>
        <translation>相似，但按导入规则不算同一篇论文</translation>
    </message>
    <message>
        <source>No possible duplicates.</source>
        <translation>没有可能的重复项。</translation>
    </message>
    <message numerus="yes">
        <source>%n possible duplicate(s) — the import&apos;s own reasons in bold</source>
        <translation>
            <numerusform>%n 对可能的重复项 — 导入规则给出的原因以粗体显示</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose a pair on the left.</source>
        <translation>请在左侧选择一对论文。</translation>
    </message>
    <message>
        <source>Keep: paper {0}</source>
        <translation>保留：论文 {0}</translation>
    </message>
    <message>
        <source>Merge into it, then trash: paper {0}</source>
        <translation>合并后移入回收站：论文 {0}</translation>
    </message>
    <message>
        <source>Also</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>{0}: use the value of the kept paper</source>
        <translation>{0}：使用保留论文的值</translation>
    </message>
    <message>
        <source>{0}: use the value of the other paper</source>
        <translation>{0}：使用另一篇论文的值</translation>
    </message>
    <message>
        <source>Merge duplicate “{0}”</source>
        <translation>合并重复项“{0}”</translation>
    </message>
    <message>
        <source>Merge duplicates</source>
        <translation>合并重复项</translation>
    </message>
    <message>
        <source>Merged paper {0} into paper {1}. Ctrl+Z undoes it.</source>
        <translation>已将论文 {0} 合并到论文 {1}。按 Ctrl+Z 可撤销。</translation>
    </message>
    <message>
        <source>Not duplicates</source>
        <translation>不是重复</translation>
    </message>
    <message>
        <source>The search for duplicates failed: {0}</source>
        <translation>查找重复项失败：{0}</translation>
    </message>
    <message>
        <source>Paper {0} is merged into paper {1} when the library&apos;s server is back.</source>
        <translation>资料库的服务器恢复后，论文 {0} 将合并到论文 {1}。</translation>
    </message>
    <message>
        <source>Paper {0} is merged into paper {1} once another program&apos;s write is done.</source>
        <translation>另一个程序写入完成后，论文 {0} 将合并到论文 {1}。</translation>
    </message>
    <message>
        <source>The two papers are set apart when the library&apos;s server is back.</source>
        <translation>资料库的服务器恢复后，这两篇论文将被标记为不同论文。</translation>
    </message>
</context>
<context>
    <name>DuplicatesView</name>
    <message>
        <source>{0}, rated {1}</source>
        <translation>{0}，评分 {1}</translation>
    </message>
    <message>
        <source>tags: {0}</source>
        <translation>标签：{0}</translation>
    </message>
    <message>
        <source>lists: {0}</source>
        <translation>列表：{0}</translation>
    </message>
    <message>
        <source>has a note</source>
        <translation>有笔记</translation>
    </message>
    <message>
        <source>added {0}</source>
        <translation>添加于 {0}</translation>
    </message>
</context>
<context>
    <name>EditController</name>
    <message>
        <source>Marginalia</source>
        <translation>Marginalia</translation>
    </message>
    <message numerus="yes">
        <source>Add tag {0} to %n paper(s)</source>
        <translation>
            <numerusform>为 %n 篇论文添加标签 {0}</numerusform>
        </translation>
    </message>
    <message>
        <source>Add tag {0}</source>
        <translation>添加标签 {0}</translation>
    </message>
    <message>
        <source>Remove tag {0}</source>
        <translation>移除标签 {0}</translation>
    </message>
    <message numerus="yes">
        <source> (%n papers)</source>
        <translation>
            <numerusform>（%n 篇论文）</numerusform>
        </translation>
    </message>
    <message>
        <source>Mark {0}</source>
        <translation>标记为{0}</translation>
    </message>
    <message>
        <source>Rate {0}</source>
        <translation>评为 {0} 星</translation>
    </message>
    <message>
        <source>Edit title</source>
        <translation>编辑标题</translation>
    </message>
    <message>
        <source>The title had been changed elsewhere to “{0}”; yours replaced it (Edit → Undo brings that one back)</source>
        <translation>标题已在别处改为“{0}”；已被你的标题替换（编辑 → 撤销可恢复）</translation>
    </message>
    <message>
        <source>Highlight</source>
        <translation>高亮</translation>
    </message>
    <message>
        <source>Delete highlight</source>
        <translation>删除高亮</translation>
    </message>
    <message>
        <source>Edit highlight comment</source>
        <translation>编辑高亮批注</translation>
    </message>
    <message>
        <source>New reading list</source>
        <translation>新建阅读列表</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Create list {0}</source>
        <translation>创建列表 {0}</translation>
    </message>
    <message numerus="yes">
        <source>Add %n paper(s) to {0}</source>
        <translation>
            <numerusform>将 %n 篇论文加入 {0}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Added %n paper(s) to “{0}”</source>
        <translation>
            <numerusform>已将 %n 篇论文加入“{0}”</numerusform>
        </translation>
    </message>
    <message>
        <source>New list…</source>
        <translation>新建列表…</translation>
    </message>
    <message>
        <source>Add to reading list</source>
        <translation>加入阅读列表</translation>
    </message>
    <message>
        <source>List:</source>
        <translation>列表：</translation>
    </message>
    <message>
        <source>Show a reading list to reorder it</source>
        <translation>请先显示一个阅读列表再调整顺序</translation>
    </message>
    <message>
        <source>Move in list</source>
        <translation>在列表中移动</translation>
    </message>
    <message>
        <source>Reorder list</source>
        <translation>调整列表顺序</translation>
    </message>
    <message>
        <source>Remove from {0}</source>
        <translation>从 {0} 移除</translation>
    </message>
    <message>
        <source>Show a reading list to add notes to its items</source>
        <translation>请先显示一个阅读列表再为条目添加备注</translation>
    </message>
    <message>
        <source>List item note</source>
        <translation>列表条目备注</translation>
    </message>
    <message>
        <source>Note for this paper in “{0}”:</source>
        <translation>这篇论文在“{0}”中的备注：</translation>
    </message>
    <message>
        <source>Edit item note</source>
        <translation>编辑条目备注</translation>
    </message>
    <message>
        <source>Rename list</source>
        <translation>重命名列表</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Describe list</source>
        <translation>列表说明</translation>
    </message>
    <message>
        <source>Description of “{0}”:</source>
        <translation>“{0}”的说明：</translation>
    </message>
    <message>
        <source>Delete list {0}</source>
        <translation>删除列表 {0}</translation>
    </message>
    <message>
        <source>Rename tag</source>
        <translation>重命名标签</translation>
    </message>
    <message>
        <source>Rename “{0}” (its children follow) to:</source>
        <translation>将“{0}”（连同其子标签）重命名为：</translation>
    </message>
    <message>
        <source>Color of “{0}”</source>
        <translation>“{0}”的颜色</translation>
    </message>
    <message>
        <source>Recolor tag</source>
        <translation>更改标签颜色</translation>
    </message>
    <message>
        <source>Delete tag {0}</source>
        <translation>删除标签 {0}</translation>
    </message>
    <message>
        <source>Type a search first, then save it</source>
        <translation>请先输入搜索内容再保存</translation>
    </message>
    <message>
        <source>Save search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <source>Delete saved search</source>
        <translation>删除已保存的搜索</translation>
    </message>
    <message>
        <source>Snapshot of the search “{0}”</source>
        <translation>搜索“{0}”的快照</translation>
    </message>
    <message>
        <source>Snapshot search to list</source>
        <translation>将搜索结果存为列表</translation>
    </message>
    <message numerus="yes">
        <source>Reading list “{0}” holds the %n paper(s) the search found</source>
        <translation>
            <numerusform>阅读列表“{0}”包含搜索到的 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>Edit note</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <source>Merge tag {0} into {1}</source>
        <translation>将标签 {0} 合并到 {1}</translation>
    </message>
    <message>
        <source>Clear decision</source>
        <translation>清除决定</translation>
    </message>
    <message>
        <source>Decide {0}</source>
        <translation>决定为“{0}”</translation>
    </message>
    <message>
        <source>Decide topic {0} {1}</source>
        <translation>将主题 {0} 决定为“{1}”</translation>
    </message>
    <message>
        <source>Wait a moment: a large edit is still being written</source>
        <translation>请稍候：一项大批量编辑仍在写入</translation>
    </message>
    <message numerus="yes">
        <source>Move %n paper(s) to the trash</source>
        <translation>
            <numerusform>将 %n 篇论文移到回收站</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Moved %n paper(s) to the trash</source>
        <translation>
            <numerusform>已将 %n 篇论文移到回收站</numerusform>
        </translation>
    </message>
    <message>
        <source>Papers in the trash are not edited: restore them first (Ctrl+Shift+R)</source>
        <translation>回收站中的论文不能编辑：请先恢复（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <source>Another program is writing to the library: your edit is saved when it is done</source>
        <translation>另一个程序正在写入文献库：它完成后将保存你的编辑</translation>
    </message>
    <message numerus="yes">
        <source>The library&apos;s server cannot be reached: “{0}” waits and is sent when it is back (%n edit(s) waiting)</source>
        <translation>
            <numerusform>无法连接文献库的服务器：“{0}”将等待，服务器恢复后发送（%n 项编辑等待中）</numerusform>
        </translation>
    </message>
    <message>
        <source>“{0}”, made while the server was away, could not be saved: {1}</source>
        <translation>服务器不可用期间所做的“{0}”无法保存：{1}</translation>
    </message>
    <message>
        <source>The edits made while the server was away are saved</source>
        <translation>服务器不可用期间所做的编辑已保存</translation>
    </message>
    <message>
        <source>this paper was deleted elsewhere</source>
        <translation>这篇论文已在别处被删除</translation>
    </message>
    <message>
        <source>Restore paper</source>
        <translation>恢复论文</translation>
    </message>
    <message>
        <source>The paper is back from the trash; your note is stored</source>
        <translation>论文已从回收站恢复；你的笔记已保存</translation>
    </message>
    <message>
        <source>Another program is writing to the library: “{0}” is applied when it is done</source>
        <translation>另一个程序正在写入文库：“{0}”将在其完成后应用</translation>
    </message>
    <message>
        <source>Keep note as a new paper</source>
        <translation>将笔记保留为新论文</translation>
    </message>
    <message>
        <source>Your note is kept on a new paper (number {0})</source>
        <translation>你的笔记已保存在一篇新论文上（编号 {0}）</translation>
    </message>
    <message>
        <source>The waiting edits could not be kept on disk ({0}): keep this window open until the server is back</source>
        <translation>等待中的编辑无法保存到磁盘（{0}）：请在服务器恢复前保持此窗口打开</translation>
    </message>
    <message numerus="yes">
        <source>%n edit(s) wait for the library&apos;s server and are kept only in this window: closing it now loses them.</source>
        <translation>
            <numerusform>有 %n 项编辑正在等待库的服务器，且只保存在此窗口中：现在关闭将丢失它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Close anyway</source>
        <translation>仍然关闭</translation>
    </message>
    <message numerus="yes">
        <source>%n edit(s) made while the server was away were saved</source>
        <translation>
            <numerusform>服务器离线期间所做的 %n 项编辑已保存</numerusform>
        </translation>
    </message>
    <message>
        <source>A snapshot runs the search on the library&apos;s server: try again when it is back</source>
        <translation>快照要在文库的服务器上运行这个搜索：等服务器恢复后再试</translation>
    </message>
    <message numerus="yes">
        <source>Restore %n paper(s) from the trash</source>
        <translation>
            <numerusform>从回收站恢复 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>“{0}”, made while the server was away, was not saved: {1}</source>
        <translation>服务器离线期间所做的“{0}”未保存：{1}</translation>
    </message>
    <message>
        <source>“{0}”, made while the server was away, had been saved already</source>
        <translation>“{0}”是在服务器离开时做的，它已经保存过了</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Markdown (.md)</source>
        <translation>Markdown (.md)</translation>
    </message>
    <message>
        <source>HTML page (.html)</source>
        <translation>HTML 网页 (.html)</translation>
    </message>
    <message>
        <source>PDF (.pdf)</source>
        <translation>PDF (.pdf)</translation>
    </message>
    <message>
        <source>BibTeX (.bib)</source>
        <translation>BibTeX (.bib)</translation>
    </message>
    <message>
        <source>RIS (.ris)</source>
        <translation>RIS (.ris)</translation>
    </message>
    <message>
        <source>CSL-JSON (.json)</source>
        <translation>CSL-JSON (.json)</translation>
    </message>
    <message>
        <source>CSV spreadsheet (.csv)</source>
        <translation>CSV 电子表格 (.csv)</translation>
    </message>
    <message>
        <source>Marginalia JSON — everything, for backups (.json)</source>
        <translation>Marginalia JSON — 全部内容，用于备份 (.json)</translation>
    </message>
    <message>
        <source>Bibliography in the citation style, HTML (.html)</source>
        <translation>按引用样式的参考文献，HTML (.html)</translation>
    </message>
    <message>
        <source>Bibliography in the citation style, plain text (.txt)</source>
        <translation>按引用样式的参考文献，纯文本 (.txt)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>The selected papers</source>
        <translation>所选论文</translation>
    </message>
    <message>
        <source>The papers shown (current filter)</source>
        <translation>显示的论文（当前筛选）</translation>
    </message>
    <message>
        <source>Reading list: {0}</source>
        <translation>阅读列表：{0}</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Papers:</source>
        <translation>论文：</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
</context>
<context>
    <name>FieldChoices</name>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Authors</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Venue</source>
        <translation>发表于</translation>
    </message>
    <message>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>arXiv id</source>
        <translation>arXiv 编号</translation>
    </message>
    <message>
        <source>Entry type</source>
        <translation>条目类型</translation>
    </message>
    <message>
        <source>Citation key</source>
        <translation>引用键</translation>
    </message>
    <message>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>{0}: changed elsewhere while you edited it</source>
        <translation>{0}：在你编辑时已在别处被修改</translation>
    </message>
    <message>
        <source>Keep theirs</source>
        <translation>保留对方的</translation>
    </message>
    <message>
        <source>Keep mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
</context>
<context>
    <name>FileController</name>
    <message>
        <source>Bibliographies (*.bib *.ris *.txt *.json *.xml *.atom *.csv *.tsv *.enw *.nbib);;All files (*)</source>
        <translation>文献文件 (*.bib *.ris *.txt *.json *.xml *.atom *.csv *.tsv *.enw *.nbib);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import files</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <source>Restoring…</source>
        <translation>正在恢复…</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <source>Reading files…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <source>Import cancelled — nothing was added</source>
        <translation>导入已取消 — 未添加任何内容</translation>
    </message>
    <message>
        <source>Import finished</source>
        <translation>导入完成</translation>
    </message>
    <message>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
    <message>
        <source>Papers matching “{0}”</source>
        <translation>匹配“{0}”的论文</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n paper(s) to {0}</source>
        <translation>
            <numerusform>已将 %n 篇论文导出到 {0}</numerusform>
        </translation>
    </message>
    <message>
        <source>Preparing the search index…</source>
        <translation>正在准备搜索索引…</translation>
    </message>
    <message numerus="yes">
        <source>Indexing {0} of %n paper(s)…</source>
        <translation>
            <numerusform>正在索引第 {0} 篇，共 %n 篇论文…</numerusform>
        </translation>
    </message>
    <message>
        <source>Search index rebuilt ({0})</source>
        <translation>搜索索引已重建（{0}）</translation>
    </message>
    <message>
        <source>Library backed up to {0}</source>
        <translation>文库已备份到 {0}</translation>
    </message>
    <message>
        <source>Backup failed: {0}</source>
        <translation>备份失败：{0}</translation>
    </message>
    <message>
        <source>Rebuilding the search index…</source>
        <translation>正在重建搜索索引…</translation>
    </message>
    <message>
        <source>Search index rebuilt</source>
        <translation>搜索索引已重建</translation>
    </message>
    <message>
        <source>Rebuild cancelled</source>
        <translation>重建已取消</translation>
    </message>
    <message>
        <source>Check library</source>
        <translation>检查文库</translation>
    </message>
    <message numerus="yes">
        <source>All is well: %n paper(s); database and index agree.
</source>
        <translation>
            <numerusform>一切正常：%n 篇论文；数据库与索引一致。
</numerusform>
        </translation>
    </message>
    <message>
        <source>Undo import</source>
        <translation>撤销导入</translation>
    </message>
    <message>
        <source>There is no import to undo.</source>
        <translation>没有可撤销的导入。</translation>
    </message>
    <message>
        <source>Papers</source>
        <translation>论文</translation>
    </message>
    <message>
        <source>Link files outside the library?</source>
        <translation>链接文献库以外的文件？</translation>
    </message>
    <message numerus="yes">
        <source>The backup links %n file(s) outside this library&apos;s folder. They were not linked: a backup from elsewhere can name any file on this computer. Link them now? Only if you trust the backup.</source>
        <translation>
            <numerusform>该备份链接了此文献库文件夹以外的 %n 个文件。它们尚未被链接：来自别处的备份可以指向这台电脑上的任何文件。现在链接它们吗？仅当你信任此备份时才这样做。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FilterState</name>
    <message>
        <source>in the trash</source>
        <translation>在回收站中</translation>
    </message>
</context>
<context>
    <name>FlashLabel</name>
    <message>
        <source>Last decision</source>
        <translation>上一个决定</translation>
    </message>
</context>
<context>
    <name>HelpDialogs</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>About {0}</source>
        <translation>关于 {0}</translation>
    </message>
    <message>
        <source>{0} {1}

A reading room for paper abstracts.

Library: {2}
Papers: {3}</source>
        <translation>{0} {1}

论文摘要阅读室。

文库：{2}
论文：{3}</translation>
    </message>
</context>
<context>
    <name>HighlightKeys</name>
    <message>
        <source>Select words first: Shift+arrows in the abstract, then h and 1–5</source>
        <translation>请先选中文字：在摘要中用 Shift+方向键选择，然后按 h 和 1–5</translation>
    </message>
    <message>
        <source>Highlight color: {0} (Esc cancels)</source>
        <translation>高亮颜色：{0}（Esc 取消）</translation>
    </message>
</context>
<context>
    <name>HighlightList</name>
    <message>
        <source>Highlights</source>
        <translation>高亮</translation>
    </message>
</context>
<context>
    <name>ImportPreview</name>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Each of these records was found to be a paper already there. Tick “Keep apart” to import one as a paper of its own.</source>
        <translation>以下每条记录都与文库中已有的论文相同。勾选“单独保留”可将其作为独立论文导入。</translation>
    </message>
    <message>
        <source>Duplicates: fill in what the library lacks (your tags, notes and edits stay)</source>
        <translation>重复项：补全文库缺少的信息（保留你的标签、笔记和编辑）</translation>
    </message>
    <message>
        <source>Duplicates: skip them</source>
        <translation>重复项：跳过</translation>
    </message>
    <message>
        <source>Add the files&apos; keywords as tags under keywords/ ({0} on {1}; they are kept as each paper&apos;s keywords either way)</source>
        <translation>将文件中的关键词作为 keywords/ 下的标签添加（{1}中共 {0}；无论如何都会保留为论文的关键词）</translation>
    </message>
    <message numerus="yes">
        <source>%n keyword(s)</source>
        <translation>
            <numerusform>%n 个关键词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n record(s)</source>
        <translation>
            <numerusform>%n 条记录</numerusform>
        </translation>
    </message>
    <message>
        <source>Keep apart</source>
        <translation>单独保留</translation>
    </message>
    <message>
        <source>Record in the file</source>
        <translation>文件中的记录</translation>
    </message>
    <message>
        <source>Is the paper</source>
        <translation>已有论文</translation>
    </message>
    <message>
        <source>Because</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>line {0}</source>
        <translation>第 {0} 行</translation>
    </message>
    <message>
        <source>{0}, {1} already there ({2}), {3}.</source>
        <translation>{0}，{1} 篇已存在（{2}），{3}。</translation>
    </message>
    <message>
        <source>{0}, {1}.</source>
        <translation>{0}，{1}。</translation>
    </message>
    <message>
        <source>{0} ({1}): {2} new, {3} already there, {4} failed</source>
        <translation>{0}（{1}）：{2} 篇新论文，{3} 篇已存在，{4} 条失败</translation>
    </message>
    <message>
        <source>    warning: {0}</source>
        <translation>    警告：{0}</translation>
    </message>
    <message>
        <source>    failed: {0}</source>
        <translation>    失败：{0}</translation>
    </message>
    <message>
        <source>    … and {0} more</source>
        <translation>    … 另有 {0} 条</translation>
    </message>
</context>
<context>
    <name>IndexStatus</name>
    <message>
        <source>Indexing… {0} of {1}</source>
        <translation>正在索引… {0} / {1}</translation>
    </message>
    <message>
        <source>Search index update failed ({0}); it will be retried</source>
        <translation>搜索索引更新失败（{0}）；稍后将重试</translation>
    </message>
</context>
<context>
    <name>Job</name>
    <message>
        <source>The library database is damaged ({0}).</source>
        <translation>文库数据库已损坏（{0}）。</translation>
    </message>
</context>
<context>
    <name>Jobs</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Marginalia</source>
        <translation>Marginalia</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>Launch</name>
    <message>
        <source>Marginalia</source>
        <translation>Marginalia</translation>
    </message>
    <message>
        <source>The library is damaged and there is no backup to restore.

{0}</source>
        <translation>文库已损坏，且没有可恢复的备份。

{0}</translation>
    </message>
    <message>
        <source>The library is damaged. Restore the backup of {0}?</source>
        <translation>文库已损坏。要恢复 {0} 的备份吗？</translation>
    </message>
    <message>
        <source>The damaged file is kept aside in {0}.
({1})</source>
        <translation>损坏的文件另存于 {0}。
（{1}）</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>{0} is the library open in this window.</source>
        <translation>{0} 就是此窗口中打开的文库。</translation>
    </message>
    <message>
        <source>Cannot create the folder {0}: {1}</source>
        <translation>无法创建文件夹 {0}：{1}</translation>
    </message>
    <message>
        <source>The library {0} is open in another Marginalia window. Close it there first.</source>
        <translation>文库 {0} 已在另一个 Marginalia 窗口中打开。请先在那里关闭它。</translation>
    </message>
    <message>
        <source>Cannot open the library {0}:
{1}</source>
        <translation>无法打开文库 {0}：
{1}</translation>
    </message>
    <message>
        <source>Not found: {0}</source>
        <translation>未找到：{0}</translation>
    </message>
    <message>
        <source>The library {0} is open in another Marginalia window, which did not answer.
Close it there first, or start with --library to open another library.</source>
        <translation>文库 {0} 已在另一个 Marginalia 窗口中打开，但该窗口没有响应。
请先在那里关闭它，或使用 --library 启动以打开其他文库。</translation>
    </message>
    <message>
        <source>

These files were not imported: {0}.
Import them with File → Import… in that window.</source>
        <translation>

以下文件未导入：{0}。
请在那个窗口中用 文件 → 导入… 导入它们。</translation>
    </message>
    <message>
        <source>Cannot create the library folder {0}:
{1}</source>
        <translation>无法创建文库文件夹 {0}：
{1}</translation>
    </message>
    <message>
        <source>Cannot open the shared library:
{0}</source>
        <translation>无法打开共享文库：
{0}</translation>
    </message>
</context>
<context>
    <name>Libraries</name>
    <message>
        <source>{0} is a file, not a folder.</source>
        <translation>{0} 是文件，不是文件夹。</translation>
    </message>
    <message>
        <source>{0} already holds a library: open it with Switch library… instead.</source>
        <translation>{0} 中已有文库：请改用“切换文库…”打开它。</translation>
    </message>
    <message>
        <source>{0} is neither a Marginalia library nor empty. Choose an empty folder to make a new library there.</source>
        <translation>{0} 既不是 Marginalia 文库，也不是空文件夹。请选择一个空文件夹来新建文库。</translation>
    </message>
    <message>
        <source>{0} cannot be written by this user: choose a folder you may write.</source>
        <translation>当前用户无法写入 {0}：请选择有写权限的文件夹。</translation>
    </message>
    <message>
        <source>The library database in {0} cannot be written by this user.</source>
        <translation>当前用户无法写入 {0} 中的文库数据库。</translation>
    </message>
    <message>
        <source>New library: choose an empty folder</source>
        <translation>新建文库：选择一个空文件夹</translation>
    </message>
    <message>
        <source>Switch library: choose a library or an empty folder</source>
        <translation>切换文库：选择一个文库或空文件夹</translation>
    </message>
    <message>
        <source>This window cannot open another library.</source>
        <translation>此窗口无法打开其他文库。</translation>
    </message>
    <message>
        <source>Open library</source>
        <translation>打开文库</translation>
    </message>
    <message>
        <source>New library…</source>
        <translation>新建文库…</translation>
    </message>
    <message>
        <source>Switch library…</source>
        <translation>切换文库…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>This library is not there any more</source>
        <translation>此文库已不存在</translation>
    </message>
    <message>
        <source>No recent libraries</source>
        <translation>没有最近的文库</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>{0} — {1} (read-only)</source>
        <translation>{0} — {1}（只读）</translation>
    </message>
    <message>
        <source>This library is read-only: you can read, search and export, but changes cannot be saved (this user may not write its folder or database).</source>
        <translation>此文库为只读：可以阅读、搜索和导出，但无法保存更改（当前用户无权写入其文件夹或数据库）。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Import the NeurIPS 2026 sample</source>
        <translation>导入 NeurIPS 2026 示例</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Print…</source>
        <translation>打印(&amp;P)…</translation>
    </message>
    <message>
        <source>Undo last import…</source>
        <translation>撤销上次导入…</translation>
    </message>
    <message>
        <source>Rebuild search index</source>
        <translation>重建搜索索引</translation>
    </message>
    <message>
        <source>Check library</source>
        <translation>检查文库</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>查找(&amp;F)</translation>
    </message>
    <message>
        <source>Select &amp;all papers</source>
        <translation>全选论文(&amp;A)</translation>
    </message>
    <message>
        <source>Find possible duplicates…</source>
        <translation>查找可能的重复项…</translation>
    </message>
    <message>
        <source>Se&amp;ttings…</source>
        <translation>设置(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Paper</source>
        <translation>论文(&amp;P)</translation>
    </message>
    <message>
        <source>Mark {0}	{1}</source>
        <translation>标记为{0}	{1}</translation>
    </message>
    <message>
        <source>&amp;Open paper</source>
        <translation>打开论文(&amp;O)</translation>
    </message>
    <message>
        <source>Attach &amp;file…</source>
        <translation>添加附件(&amp;F)…</translation>
    </message>
    <message>
        <source>Add tag…	T</source>
        <translation>添加标签…	T</translation>
    </message>
    <message>
        <source>Edit &amp;metadata…</source>
        <translation>编辑元数据(&amp;M)…</translation>
    </message>
    <message>
        <source>Edit note	N</source>
        <translation>编辑笔记	N</translation>
    </message>
    <message>
        <source>Note history…</source>
        <translation>笔记历史…</translation>
    </message>
    <message>
        <source>Add to reading list…</source>
        <translation>加入阅读列表…</translation>
    </message>
    <message>
        <source>Move up in list</source>
        <translation>在列表中上移</translation>
    </message>
    <message>
        <source>Move down in list</source>
        <translation>在列表中下移</translation>
    </message>
    <message>
        <source>Edit list item note…</source>
        <translation>编辑列表条目备注…</translation>
    </message>
    <message>
        <source>Remove from this list</source>
        <translation>从此列表移除</translation>
    </message>
    <message>
        <source>Re-derive titles…</source>
        <translation>重新生成标题…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>All papers</source>
        <translation>全部论文</translation>
    </message>
    <message>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <source>New reading list…</source>
        <translation>新建阅读列表…</translation>
    </message>
    <message>
        <source>Save search…</source>
        <translation>保存搜索…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Marginalia</source>
        <translation>关于 Marginalia(&amp;A)</translation>
    </message>
    <message numerus="yes">
        <source>Recovered unsaved note text for %n paper(s) after a crash</source>
        <translation>
            <numerusform>程序崩溃后，已为 %n 篇论文恢复未保存的笔记</numerusform>
        </translation>
    </message>
    <message>
        <source>{0} — the results will come back in a moment</source>
        <translation>{0} — 结果稍后恢复</translation>
    </message>
    <message>
        <source>Search index update failed ({0}); it will be retried</source>
        <translation>搜索索引更新失败（{0}）；稍后将重试</translation>
    </message>
    <message>
        <source>Statistics…</source>
        <translation>统计…</translation>
    </message>
    <message>
        <source>&amp;Triage</source>
        <translation>分拣(&amp;T)</translation>
    </message>
    <message>
        <source>Back to the previous paper</source>
        <translation>返回上一篇论文</translation>
    </message>
    <message>
        <source>No paper to go back to</source>
        <translation>没有可返回的论文</translation>
    </message>
    <message>
        <source>The reading list of this search no longer exists</source>
        <translation>此搜索的阅读列表已不存在</translation>
    </message>
    <message>
        <source>Topics…</source>
        <translation>主题…</translation>
    </message>
    <message>
        <source>&amp;Move selected papers to the trash</source>
        <translation>将所选论文移到回收站(&amp;M)</translation>
    </message>
    <message>
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <source>Map…</source>
        <translation>地图…</translation>
    </message>
    <message>
        <source>The library&apos;s server cannot be reached: the search runs again when it is back</source>
        <translation>无法连接文献库的服务器：服务器恢复后将重新搜索</translation>
    </message>
    <message>
        <source>The library&apos;s -wal file was deleted while the window was open: the recent changes the window still held were written back into the library. Nothing was lost.</source>
        <translation>窗口打开期间，文库的 -wal 文件被删除：窗口仍持有的最近更改已写回文库，没有丢失任何内容。</translation>
    </message>
</context>
<context>
    <name>MapDialog</name>
    <message>
        <source>Map</source>
        <translation>地图</translation>
    </message>
    <message>
        <source>&amp;Colour by:</source>
        <translation>着色依据(&amp;C)：</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>&amp;Lasso</source>
        <translation>套索(&amp;L)</translation>
    </message>
    <message>
        <source>Drag around papers to select them (or Shift+drag at any time)</source>
        <translation>拖动圈出论文以选中它们（任何时候也可按住 Shift 拖动）</translation>
    </message>
    <message>
        <source>&amp;Fit</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Show the whole map (0)</source>
        <translation>显示整张地图 (0)</translation>
    </message>
    <message>
        <source>Save as &amp;PNG…</source>
        <translation>另存为 &amp;PNG…</translation>
    </message>
    <message>
        <source>Placing {0} by similarity…</source>
        <translation>正在按相似度排布 {0}…</translation>
    </message>
    <message>
        <source>No map: {0}</source>
        <translation>无法生成地图：{0}</translation>
    </message>
    <message>
        <source>No map</source>
        <translation>没有地图</translation>
    </message>
    <message>
        <source>No papers to map: the shown list is empty.</source>
        <translation>没有可绘制的论文：当前列表为空。</translation>
    </message>
    <message>
        <source>Too few papers to tell topics apart: a map needs at least 3.</source>
        <translation>论文太少，无法区分主题：地图至少需要 3 篇。</translation>
    </message>
    <message>
        <source>{0} in {1} topics</source>
        <translation>{0}，分为 {1} 个主题</translation>
    </message>
    <message>
        <source>No papers</source>
        <translation>没有论文</translation>
    </message>
    <message>
        <source>Wheel or +/- zooms, drag or arrows pan, a click or Enter shows the paper, Shift+drag selects</source>
        <translation>滚轮或 +/- 缩放，拖动或方向键平移，单击或回车显示论文，Shift+拖动选择</translation>
    </message>
    <message>
        <source>That paper is not in the table&apos;s list now</source>
        <translation>这篇论文目前不在表格的列表中</translation>
    </message>
    <message>
        <source>Selected {0} from the map</source>
        <translation>已从地图选中 {0}</translation>
    </message>
    <message>
        <source>Save the map as PNG</source>
        <translation>将地图保存为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Saved the map to {0}</source>
        <translation>地图已保存到 {0}</translation>
    </message>
    <message>
        <source>Could not write {0}</source>
        <translation>无法写入 {0}</translation>
    </message>
</context>
<context>
    <name>MapView</name>
    <message>
        <source>Map of the papers</source>
        <translation>论文地图</translation>
    </message>
    <message>
        <source>Arrows pan, + and - zoom, 0 fits, Enter shows the paper at the cross; Shift+drag draws a lasso</source>
        <translation>方向键平移，+ 和 - 缩放，0 适应窗口，回车显示十字处的论文；Shift+拖动画出套索</translation>
    </message>
    <message>
        <source>other or no tag</source>
        <translation>其他标签或无标签</translation>
    </message>
    <message>
        <source>(no title)</source>
        <translation>（无标题）</translation>
    </message>
</context>
<context>
    <name>MergeTagsDialog</name>
    <message>
        <source>Merge tags</source>
        <translation>合并标签</translation>
    </message>
    <message>
        <source>Merge the tag “{0}” into:</source>
        <translation>将标签“{0}”合并到：</translation>
    </message>
    <message>
        <source>Filter tags…</source>
        <translation>筛选标签…</translation>
    </message>
    <message>
        <source>Filter tags</source>
        <translation>筛选标签</translation>
    </message>
    <message>
        <source>Tag to merge into</source>
        <translation>合并到的标签</translation>
    </message>
    <message>
        <source>Choose the tag to merge into; nothing changes until you press Merge.</source>
        <translation>请选择要合并到的标签；按下“合并”之前不会有任何更改。</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
</context>
<context>
    <name>MetadataEditor</name>
    <message>
        <source>Edit metadata</source>
        <translation>编辑元数据</translation>
    </message>
    <message>
        <source>e.g. {0}</source>
        <translation>例如 {0}</translation>
    </message>
    <message>
        <source>e.g. 10.1234/abc.567 or a doi.org link</source>
        <translation>例如 10.1234/abc.567 或 doi.org 链接</translation>
    </message>
    <message>
        <source>e.g. 2101.01234 or hep-th/9901001</source>
        <translation>例如 2101.01234 或 hep-th/9901001</translation>
    </message>
    <message>
        <source>e.g. https://example.org/paper</source>
        <translation>例如 https://example.org/paper</translation>
    </message>
    <message>
        <source>Automatic (from the venue)</source>
        <translation>自动（根据发表处）</translation>
    </message>
    <message>
        <source>{0} (@{1})</source>
        <translation>{0} (@{1})</translation>
    </message>
    <message>
        <source>Plain text; LaTeX such as $x^2$ or \textbf{…} is kept and rendered in the reader. Highlights follow their words when the text changes.</source>
        <translation>纯文本；$x^2$ 或 \textbf{…} 等 LaTeX 会保留，并在阅读器中渲染。文本改动时，高亮会跟随原来的文字。</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Venue</source>
        <translation>发表处</translation>
    </message>
    <message>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>arXiv id</source>
        <translation>arXiv 编号</translation>
    </message>
    <message>
        <source>Entry type</source>
        <translation>条目类型</translation>
    </message>
    <message>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>A&amp;uthors:</source>
        <translation>作者(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Venue:</source>
        <translation>发表处(&amp;V)：</translation>
    </message>
    <message>
        <source>&amp;Year:</source>
        <translation>年份(&amp;Y)：</translation>
    </message>
    <message>
        <source>&amp;DOI:</source>
        <translation>DOI(&amp;D)：</translation>
    </message>
    <message>
        <source>ar&amp;Xiv id:</source>
        <translation>arXiv 编号(&amp;X)：</translation>
    </message>
    <message>
        <source>U&amp;RL:</source>
        <translation>网址(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Entry type:</source>
        <translation>条目类型(&amp;E)：</translation>
    </message>
    <message>
        <source>A&amp;bstract:</source>
        <translation>摘要(&amp;B)：</translation>
    </message>
    <message>
        <source>Edit {0}</source>
        <translation>编辑{0}</translation>
    </message>
    <message>
        <source>Select a paper to edit its metadata</source>
        <translation>请先选择要编辑元数据的论文</translation>
    </message>
    <message>
        <source>This library is read-only: its papers cannot be edited</source>
        <translation>此文库为只读：无法编辑其中的论文</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>authors</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>venue</source>
        <translation>发表处</translation>
    </message>
    <message>
        <source>year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>doi</source>
        <translation>DOI</translation>
    </message>
    <message>
        <source>arxiv</source>
        <translation>arXiv 编号</translation>
    </message>
    <message>
        <source>url</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>entry type</source>
        <translation>条目类型</translation>
    </message>
    <message>
        <source>abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>How a LaTeX document cites the paper (\cite{{{0}}}). Made once, unique in the library; every export keeps it.</source>
        <translation>LaTeX 文档引用此论文的方式（\cite{{{0}}}）。只生成一次，在文献库中唯一；每次导出都保持不变。</translation>
    </message>
    <message>
        <source>Citation key</source>
        <translation>引用键</translation>
    </message>
    <message>
        <source>Citation &amp;key:</source>
        <translation>引用键(&amp;K):</translation>
    </message>
    <message>
        <source>citation key</source>
        <translation>引用键</translation>
    </message>
    <message>
        <source>The library&apos;s server cannot be reached: only the paper the reader shows can be edited meanwhile</source>
        <translation>无法连接资料库的服务器：在此期间只能编辑阅读器中显示的论文</translation>
    </message>
    <message>
        <source>your edit of “{0}”, made while the server was away, was not saved: {1}</source>
        <translation>服务器离线期间对“{0}”所做的编辑未保存：{1}</translation>
    </message>
</context>
<context>
    <name>NoteEditor</name>
    <message>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Show the note rendered (Ctrl+Shift+P)</source>
        <translation>显示渲染后的笔记 (Ctrl+Shift+P)</translation>
    </message>
    <message>
        <source>History…</source>
        <translation>历史…</translation>
    </message>
    <message>
        <source>Earlier versions of this note, and restore one</source>
        <translation>查看并恢复这条笔记的早期版本</translation>
    </message>
    <message>
        <source>Write a note in Markdown — it saves itself.</source>
        <translation>用 Markdown 写笔记 — 会自动保存。</translation>
    </message>
    <message>
        <source>editing…</source>
        <translation>编辑中…</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>waiting to save…</source>
        <translation>等待保存…</translation>
    </message>
    <message>
        <source>This library is read-only.</source>
        <translation>此文库为只读。</translation>
    </message>
    <message>
        <source>updated from elsewhere</source>
        <translation>已在别处更新</translation>
    </message>
    <message>
        <source>the library could not be written</source>
        <translation>无法写入文献库</translation>
    </message>
    <message>
        <source>not saved: {0}; kept here and retried</source>
        <translation>未保存：{0}；内容保留在此处并将重试</translation>
    </message>
    <message>
        <source>Save note to a file</source>
        <translation>将笔记保存到文件</translation>
    </message>
    <message>
        <source>Markdown (*.md);;All files (*)</source>
        <translation>Markdown (*.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>not saved to {0}: {1}</source>
        <translation>未能保存到 {0}：{1}</translation>
    </message>
    <message>
        <source>note saved to {0}</source>
        <translation>笔记已保存到 {0}</translation>
    </message>
    <message>
        <source>kept on a new paper</source>
        <translation>已保存在新论文上</translation>
    </message>
</context>
<context>
    <name>NoteHistoryDialog</name>
    <message>
        <source>before {0}</source>
        <translation>{0} 之前</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>Current note · {0} · {1} — {2}</source>
        <translation>当前笔记 · {0} · {1} — {2}</translation>
    </message>
    <message>
        <source>Note history — {0}</source>
        <translation>笔记历史 — {0}</translation>
    </message>
    <message>
        <source>Versions of the note</source>
        <translation>笔记的各个版本</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <source>Compare with the current note</source>
        <translation>与当前笔记比较</translation>
    </message>
    <message>
        <source>Restore this version</source>
        <translation>恢复此版本</translation>
    </message>
    <message>
        <source>Make this text the note again (Edit → Undo takes it back)</source>
        <translation>将此文本恢复为笔记（编辑 → 撤销可还原）</translation>
    </message>
    <message>
        <source>This paper&apos;s note has no earlier versions.</source>
        <translation>这篇论文的笔记没有早期版本。</translation>
    </message>
    <message>
        <source>From this version to the current note:</source>
        <translation>从此版本到当前笔记的改动：</translation>
    </message>
    <message>
        <source>Changes against the version before it:</source>
        <translation>与上一版本相比的改动：</translation>
    </message>
    <message>
        <source>The oldest version kept:</source>
        <translation>保留的最早版本：</translation>
    </message>
    <message>
        <source>The library is busy; try restoring again in a moment</source>
        <translation>文库正忙；请稍后再试恢复</translation>
    </message>
    <message>
        <source>Restore note version</source>
        <translation>恢复笔记版本</translation>
    </message>
    <message>
        <source>Restored an earlier version of the note (Edit → Undo takes it back)</source>
        <translation>已恢复笔记的早期版本（编辑 → 撤销可还原）</translation>
    </message>
    <message>
        <source>Select a paper to see its note history</source>
        <translation>请先选择要查看笔记历史的论文</translation>
    </message>
</context>
<context>
    <name>OfflineBanner</name>
    <message>
        <source>The library&apos;s server cannot be reached — showing what this desk has; edits wait</source>
        <translation>无法连接文献库的服务器 — 显示本机已有的内容；编辑将等待发送</translation>
    </message>
    <message>
        <source>The library&apos;s server is back</source>
        <translation>文献库的服务器已恢复</translation>
    </message>
</context>
<context>
    <name>PaperLinks</name>
    <message>
        <source>Open {0} in the browser</source>
        <translation>在浏览器中打开 {0}</translation>
    </message>
</context>
<context>
    <name>PaperMenu</name>
    <message>
        <source>Copy citation</source>
        <translation>复制引用</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <source>Tag for {0}:</source>
        <translation>为{0}添加标签：</translation>
    </message>
    <message>
        <source>Open paper</source>
        <translation>打开论文</translation>
    </message>
    <message>
        <source>Copy {0} citations</source>
        <translation>复制 {0} 条引用</translation>
    </message>
    <message>
        <source>Copy BibTeX</source>
        <translation>复制 BibTeX</translation>
    </message>
    <message>
        <source>Copy BibTeX of {0} papers</source>
        <translation>复制 {0} 篇论文的 BibTeX</translation>
    </message>
    <message>
        <source>Add to reading list</source>
        <translation>加入阅读列表</translation>
    </message>
    <message>
        <source>Add {0} papers to reading list</source>
        <translation>将 {0} 篇论文加入阅读列表</translation>
    </message>
    <message>
        <source>New list…</source>
        <translation>新建列表…</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Add tag…</source>
        <translation>添加标签…</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Rating</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>No rating</source>
        <translation>无评分</translation>
    </message>
    <message>
        <source>Related papers</source>
        <translation>相关论文</translation>
    </message>
    <message>
        <source>Papers related to these {0}</source>
        <translation>与这 {0} 篇相关的论文</translation>
    </message>
    <message>
        <source>Edit metadata…</source>
        <translation>编辑元数据…</translation>
    </message>
    <message>
        <source>Mark {0}</source>
        <translation>标记为{0}</translation>
    </message>
    <message>
        <source>Open the current paper</source>
        <translation>打开当前论文</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Move to the trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <source>Move {0} papers to the trash</source>
        <translation>将 {0} 篇论文移到回收站</translation>
    </message>
</context>
<context>
    <name>PaperModel</name>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Venue</source>
        <translation>发表处</translation>
    </message>
    <message>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Rating</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>添加时间</translation>
    </message>
    <message>
        <source>Authors</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Relevance</source>
        <translation>相关度</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Likely keep</source>
        <translation>可能保留</translation>
    </message>
</context>
<context>
    <name>PaperTable</name>
    <message>
        <source>Papers</source>
        <translation>论文</translation>
    </message>
    <message>
        <source>Highlights and note</source>
        <translation>高亮和笔记</translation>
    </message>
    <message>
        <source>Relevance (while searching)</source>
        <translation>相关度（搜索时）</translation>
    </message>
</context>
<context>
    <name>PaperTableModel</name>
    <message>
        <source>Highlights and note</source>
        <translation>高亮和笔记</translation>
    </message>
    <message numerus="yes">
        <source>%n highlight(s), has a note</source>
        <translation>
            <numerusform>%n 处高亮，有笔记</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n highlight(s)</source>
        <translation>
            <numerusform>%n 处高亮</numerusform>
        </translation>
    </message>
    <message>
        <source>Search score {0:.2f} (BM25F; the best here: {1:.2f})</source>
        <translation>搜索得分 {0:.2f}（BM25F；本次最高：{1:.2f}）</translation>
    </message>
    <message>
        <source>Learned from your keeps and skips: more likely a keep than {0}% of the library</source>
        <translation>从你的保留和跳过中学到：比文库中 {0}% 的论文更可能被保留</translation>
    </message>
</context>
<context>
    <name>Plurals</name>
    <message numerus="yes">
        <source>%n paper(s)</source>
        <translation>
            <numerusform>%n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n highlight(s)</source>
        <translation>
            <numerusform>%n 处高亮</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new paper(s)</source>
        <translation>
            <numerusform>%n 篇新论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n could not be read</source>
        <translation>
            <numerusform>%n 条无法读取</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n 个字符</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n reference(s) ({0})</source>
        <translation>
            <numerusform>已复制 %n 条引用（{0}）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Formatting %n reference(s)…</source>
        <translation>
            <numerusform>正在格式化 %n 条引用…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n BibTeX entries</source>
        <translation>
            <numerusform>已复制 %n 条 BibTeX 条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n title(s) re-derived (Edit → Undo restores them)</source>
        <translation>
            <numerusform>已重新生成 %n 个标题（编辑 → 撤销可还原）</numerusform>
        </translation>
    </message>
    <message>
        <source>No backup yet.</source>
        <translation>尚无备份。</translation>
    </message>
    <message numerus="yes">
        <source>The newest backup is %n day(s) old.</source>
        <translation>
            <numerusform>最新备份是 %n 天前的。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The newest backup is %n hour(s) old.</source>
        <translation>
            <numerusform>最新备份是 %n 小时前的。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The newest backup is %n minute(s) old.</source>
        <translation>
            <numerusform>最新备份是 %n 分钟前的。</numerusform>
        </translation>
    </message>
    <message>
        <source>The newest backup is less than a minute old.</source>
        <translation>最新备份是不到一分钟前的。</translation>
    </message>
    <message numerus="yes">
        <source>Move %n paper(s) to the trash</source>
        <translation>
            <numerusform>将 %n 篇论文移到回收站</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RatingControl</name>
    <message>
        <source>Rating</source>
        <translation>评分</translation>
    </message>
    <message numerus="yes">
        <source>%n star(s)</source>
        <translation>
            <numerusform>%n 星</numerusform>
        </translation>
    </message>
    <message>
        <source>Rate {0} (key {1}); click again to clear</source>
        <translation>评为 {0} 星（按键 {1}）；再次点击可清除</translation>
    </message>
</context>
<context>
    <name>ReaderPane</name>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Keywords from the imported file (search them with keyword:…)</source>
        <translation>导入文件中的关键词（用 keyword:… 搜索）</translation>
    </message>
    <message>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Highlight:</source>
        <translation>高亮：</translation>
    </message>
    <message>
        <source>Highlight {0}</source>
        <translation>{0}高亮</translation>
    </message>
    <message>
        <source>With comment…</source>
        <translation>添加批注…</translation>
    </message>
    <message>
        <source>Note in “{0}”: {1}</source>
        <translation>“{0}”中的备注：{1}</translation>
    </message>
    <message>
        <source>Select a paper to read it.</source>
        <translation>选择一篇论文开始阅读。</translation>
    </message>
    <message>
        <source>Derived from the abstract; edit to replace</source>
        <translation>由摘要生成；编辑即可替换</translation>
    </message>
    <message>
        <source>title derived from the abstract</source>
        <translation>标题由摘要生成</translation>
    </message>
    <message>
        <source>in {0}</source>
        <translation>位于 {0}</translation>
    </message>
    <message>
        <source>Keywords: {0} … and {1} more</source>
        <translation>关键词：{0} … 另有 {1} 个</translation>
    </message>
    <message>
        <source>Keywords: {0}</source>
        <translation>关键词：{0}</translation>
    </message>
    <message>
        <source>⚠ orphaned: {0}</source>
        <translation>⚠ 已失效：{0}</translation>
    </message>
    <message>
        <source>This passage is no longer in the abstract</source>
        <translation>这段文字已不在摘要中</translation>
    </message>
    <message>
        <source>Click to show it</source>
        <translation>点击显示</translation>
    </message>
    <message>
        <source>Highlight</source>
        <translation>高亮</translation>
    </message>
    <message>
        <source>Comment:</source>
        <translation>批注：</translation>
    </message>
    <message>
        <source>Edit comment…</source>
        <translation>编辑批注…</translation>
    </message>
    <message>
        <source>Delete highlight</source>
        <translation>删除高亮</translation>
    </message>
    <message>
        <source>Highlight comment</source>
        <translation>高亮批注</translation>
    </message>
    <message>
        <source>Highlight with comment…</source>
        <translation>高亮并批注…</translation>
    </message>
    <message>
        <source>Highlight the selection in {0} (h then {1}, or Shift+{1})</source>
        <translation>用{0}高亮所选文字（先按 h 再按 {1}，或 Shift+{1}）</translation>
    </message>
</context>
<context>
    <name>RelatedPanel</name>
    <message>
        <source>Related papers</source>
        <translation>相关论文</translation>
    </message>
    <message>
        <source>Show the related papers</source>
        <translation>显示相关论文</translation>
    </message>
    <message>
        <source>Hide the related papers</source>
        <translation>隐藏相关论文</translation>
    </message>
    <message>
        <source>Looking for related papers…</source>
        <translation>正在查找相关论文…</translation>
    </message>
    <message>
        <source>No related papers in this library</source>
        <translation>此文库中没有相关论文</translation>
    </message>
    <message>
        <source>{0} — {1} (similarity {2})</source>
        <translation>{0} — {1}（相似度 {2}）</translation>
    </message>
    <message>
        <source>{0}, {1}</source>
        <translation>{0}，{1}</translation>
    </message>
    <message>
        <source>strong</source>
        <translation>强</translation>
    </message>
    <message>
        <source>related</source>
        <translation>相关</translation>
    </message>
    <message>
        <source>weak</source>
        <translation>弱</translation>
    </message>
</context>
<context>
    <name>RetitleDialog</name>
    <message>
        <source>Re-derive titles</source>
        <translation>重新生成标题</translation>
    </message>
    <message numerus="yes">
        <source>%n title(s) derived from their abstracts would read differently now. Titles you edited or that came with the paper are never changed.</source>
        <translation>
            <numerusform>按当前规则，有 %n 个由摘要生成的标题会有所不同。你编辑过的标题或论文自带的标题不会改变。</numerusform>
        </translation>
    </message>
    <message>
        <source>New title</source>
        <translation>新标题</translation>
    </message>
    <message>
        <source>Current title</source>
        <translation>当前标题</translation>
    </message>
    <message>
        <source>Check all</source>
        <translation>全部勾选</translation>
    </message>
    <message>
        <source>Check none</source>
        <translation>全部取消</translation>
    </message>
    <message>
        <source>Re-derive</source>
        <translation>重新生成</translation>
    </message>
    <message numerus="yes">
        <source>Re-derive %n title(s)</source>
        <translation>
            <numerusform>重新生成 %n 个标题</numerusform>
        </translation>
    </message>
    <message>
        <source>Marginalia</source>
        <translation>Marginalia</translation>
    </message>
    <message>
        <source>Every derived title is already what the current rules derive</source>
        <translation>所有生成的标题都已符合当前规则</translation>
    </message>
    <message>
        <source>Comparing derived titles…</source>
        <translation>正在比较生成的标题…</translation>
    </message>
    <message>
        <source>Re-derive titles compares the titles on the library&apos;s server: try again when it is back</source>
        <translation>重新推导标题需要比较资料库服务器上的标题：请在服务器恢复后重试</translation>
    </message>
</context>
<context>
    <name>SearchBar</name>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Search — e.g.  tag:rl/* AND NOT status:read   &quot;in-context learning&quot;   year:&gt;=2025</source>
        <translation>搜索 — 例如  tag:rl/* AND NOT status:read   &quot;in-context learning&quot;   year:&gt;=2025</translation>
    </message>
    <message>
        <source>Save search…</source>
        <translation>保存搜索…</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <source>Remove this filter</source>
        <translation>移除此筛选条件</translation>
    </message>
    <message>
        <source>Filter {0}; press to remove</source>
        <translation>筛选条件 {0}；点击移除</translation>
    </message>
    <message>
        <source>Remove this filter (Alt+click: the opposite tag filter)</source>
        <translation>移除此筛选（Alt+单击：改为相反的标签筛选）</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>文库</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Citations</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>Attachments</source>
        <translation>附件</translation>
    </message>
    <message>
        <source>System size</source>
        <translation>系统字号</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> 磅</translation>
    </message>
    <message>
        <source>Theme:</source>
        <translation>主题：</translation>
    </message>
    <message>
        <source>Text size of the list and the reader:</source>
        <translation>列表和阅读器的字号：</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>A new language applies when Marginalia starts again.</source>
        <translation>更改语言将在 Marginalia 下次启动时生效。</translation>
    </message>
    <message>
        <source>The library open in this window:</source>
        <translation>此窗口中打开的文库：</translation>
    </message>
    <message>
        <source>Switch library…</source>
        <translation>切换文库…</translation>
    </message>
    <message>
        <source>Open another library, or an empty folder as a new library, in this window</source>
        <translation>在此窗口中打开另一个文库，或将空文件夹作为新文库打开</translation>
    </message>
    <message>
        <source>New library…</source>
        <translation>新建文库…</translation>
    </message>
    <message>
        <source>Recent libraries are in File → Open Recent.</source>
        <translation>最近的文库位于 文件 → 最近打开。</translation>
    </message>
    <message>
        <source>Back up the library automatically (once a day, when it opens)</source>
        <translation>自动备份文库（每天一次，在打开时）</translation>
    </message>
    <message>
        <source>Of the daily, weekly and monthly backups, at most this many are kept (the backups made before an upgrade are kept apart)</source>
        <translation>每日、每周和每月备份最多保留这么多份（升级前的备份另行保留）</translation>
    </message>
    <message>
        <source>Backups to keep:</source>
        <translation>保留的备份数：</translation>
    </message>
    <message>
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <source>Open backups folder</source>
        <translation>打开备份文件夹</translation>
    </message>
    <message>
        <source>What an import does unless you choose otherwise in its preview:</source>
        <translation>导入时的默认做法（可在导入预览中更改）：</translation>
    </message>
    <message>
        <source>Add the files&apos; keywords as tags (under keywords/)</source>
        <translation>将文件中的关键词添加为标签（位于 keywords/ 下）</translation>
    </message>
    <message>
        <source>Add arXiv categories as tags (under arxiv/)</source>
        <translation>将 arXiv 分类添加为标签（位于 arxiv/ 下）</translation>
    </message>
    <message>
        <source>Skip papers already in the library (else fill in what the library lacks)</source>
        <translation>跳过文库中已有的论文（否则补全文库缺少的信息）</translation>
    </message>
    <message>
        <source>Add style file…</source>
        <translation>添加样式文件…</translation>
    </message>
    <message>
        <source>Add a citation style from a .csl file (for instance one from the Zotero style repository)</source>
        <translation>从 .csl 文件添加引用样式（例如来自 Zotero 样式库的文件）</translation>
    </message>
    <message>
        <source>Copy citation and bibliographies in:</source>
        <translation>复制引用和参考文献所用样式：</translation>
    </message>
    <message>
        <source>A file dropped on a paper is:</source>
        <translation>拖放到论文上的文件：</translation>
    </message>
    <message>
        <source>Copied into the library&apos;s files folder (backed up and exported with it)</source>
        <translation>复制到文库的 files 文件夹（随文库备份和导出）</translation>
    </message>
    <message>
        <source>Linked where it is (the library only remembers its path)</source>
        <translation>在原位置链接（文库只记录其路径）</translation>
    </message>
    <message>
        <source>Backed up to {0}.</source>
        <translation>已备份到 {0}。</translation>
    </message>
    <message>
        <source>The backup failed: {0}</source>
        <translation>备份失败：{0}</translation>
    </message>
    <message>
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <source>{0} (not found)</source>
        <translation>{0}（未找到）</translation>
    </message>
    <message>
        <source>Add a citation style</source>
        <translation>添加引用样式</translation>
    </message>
    <message>
        <source>CSL styles (*.csl);;All files (*)</source>
        <translation>CSL 样式 (*.csl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Add style file</source>
        <translation>添加样式文件</translation>
    </message>
    <message>
        <source>{0} cannot be used as a citation style: {1}.</source>
        <translation>{0} 不能用作引用样式：{1}。</translation>
    </message>
    <message>
        <source>it is not well-formed XML ({0})</source>
        <translation>不是格式正确的 XML（{0}）</translation>
    </message>
    <message>
        <source>it cannot be read ({0})</source>
        <translation>无法读取（{0}）</translation>
    </message>
    <message>
        <source>its root element is &lt;{0}&gt;, not a CSL &lt;style&gt;</source>
        <translation>其根元素是 &lt;{0}&gt;，不是 CSL 的 &lt;style&gt;</translation>
    </message>
    <message>
        <source>its name does not end in .csl</source>
        <translation>文件名不以 .csl 结尾</translation>
    </message>
    <message>
        <source>In triage, go to the next paper after a status or a rating</source>
        <translation>分拣时，设置状态或评分后转到下一篇论文</translation>
    </message>
    <message>
        <source>Keep:</source>
        <translation>保留：</translation>
    </message>
    <message>
        <source>Maybe:</source>
        <translation>待定：</translation>
    </message>
    <message>
        <source>Skip:</source>
        <translation>跳过：</translation>
    </message>
    <message>
        <source>Triage keys:</source>
        <translation>分拣按键：</translation>
    </message>
    <message>
        <source>In triage, show the sentence stating the contribution in bold</source>
        <translation>分拣时以粗体显示陈述贡献的句子</translation>
    </message>
    <message>
        <source>words, separated by commas</source>
        <translation>词语，用逗号分隔</translation>
    </message>
    <message>
        <source>Include words (this library):</source>
        <translation>纳入词（本文库）：</translation>
    </message>
    <message>
        <source>Exclude words (this library):</source>
        <translation>排除词（本文库）：</translation>
    </message>
    <message>
        <source>Keep, maybe and skip each need a letter of their own.</source>
        <translation>保留、待定和跳过各需要一个不同的字母。</translation>
    </message>
    <message>
        <source>Triage already uses the key {0}; choose another letter.</source>
        <translation>分拣已使用按键 {0}；请选择其他字母。</translation>
    </message>
    <message>
        <source>Triage keys</source>
        <translation>分拣按键</translation>
    </message>
</context>
<context>
    <name>SharedDesk</name>
    <message>
        <source>Connect to a shared library…</source>
        <translation>连接共享文库…</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source>previous / next paper</source>
        <translation>上一篇 / 下一篇论文</translation>
    </message>
    <message>
        <source>read: focus the abstract</source>
        <translation>阅读：聚焦到摘要</translation>
    </message>
    <message>
        <source>add a tag (Enter creates it; a/b makes a child tag)</source>
        <translation>添加标签（回车创建；a/b 表示子标签）</translation>
    </message>
    <message>
        <source>write in the note (it saves itself)</source>
        <translation>写笔记（自动保存）</translation>
    </message>
    <message>
        <source>switch the note between editing and its rendered preview</source>
        <translation>在笔记的编辑与渲染预览之间切换</translation>
    </message>
    <message>
        <source>set the rating</source>
        <translation>设置评分</translation>
    </message>
    <message>
        <source>mark unread / skimmed / read</source>
        <translation>标记为未读 / 略读 / 已读</translation>
    </message>
    <message>
        <source>open the paper: its attached file, else its arXiv page, DOI or web address</source>
        <translation>打开论文：优先打开附件，否则打开 arXiv 页面、DOI 或网址</translation>
    </message>
    <message>
        <source>search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>clear the search</source>
        <translation>清除搜索</translation>
    </message>
    <message>
        <source>undo / redo</source>
        <translation>撤销 / 重做</translation>
    </message>
    <message>
        <source>edit the paper&apos;s metadata (authors, venue, year, DOI, …)</source>
        <translation>编辑论文元数据（作者、发表处、年份、DOI 等）</translation>
    </message>
    <message>
        <source>add the selection to a reading list</source>
        <translation>将所选论文加入阅读列表</translation>
    </message>
    <message>
        <source>move a paper within the reading list shown</source>
        <translation>在当前阅读列表中移动论文</translation>
    </message>
    <message>
        <source>new reading list</source>
        <translation>新建阅读列表</translation>
    </message>
    <message>
        <source>save the search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <source>import files</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <source>export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>print the selected papers</source>
        <translation>打印所选论文</translation>
    </message>
    <message>
        <source>copy the selected papers&apos; references in the citation style</source>
        <translation>按引用样式复制所选论文的参考文献</translation>
    </message>
    <message>
        <source>all papers / unread</source>
        <translation>全部论文 / 未读</translation>
    </message>
    <message>
        <source>settings (Preferences on macOS)</source>
        <translation>设置（macOS 上为“偏好设置”）</translation>
    </message>
    <message>
        <source>this list</source>
        <translation>本列表</translation>
    </message>
    <message>
        <source>add the reader’s suggested tag 1…5</source>
        <translation>添加阅读器建议的第 1…5 个标签</translation>
    </message>
    <message>
        <source>triage: one paper at a time (u/s/r, 0–5, t, n, Alt+1…9 quick tags, Space or → next, ← back, Esc)</source>
        <translation>分拣：逐篇处理论文（u/s/r、0–5、t、n、Alt+1…9 快捷标签、空格或 → 下一篇、← 返回、Esc）</translation>
    </message>
    <message>
        <source>first / last paper</source>
        <translation>第一篇 / 最后一篇论文</translation>
    </message>
    <message>
        <source>back to the paper you left for a related paper</source>
        <translation>返回打开相关论文前所在的论文</translation>
    </message>
    <message>
        <source>next / previous part: sidebar, search, papers, title, links, status, rating, tags, suggested tags, abstract, highlights, related papers, note</source>
        <translation>下一个 / 上一个区域：侧栏、搜索、论文、标题、链接、状态、评分、标签、建议标签、摘要、高亮、相关论文、笔记</translation>
    </message>
    <message>
        <source>in the links, suggested tags and related papers: move (← / → too), then open or add</source>
        <translation>在链接、建议标签和相关论文中：移动（也可用 ← / →），然后打开或添加</translation>
    </message>
    <message>
        <source>highlight the selected words (select with Shift+arrows in the abstract): h then 1–5 for the color (h h yellow), or Shift+1…5 at once</source>
        <translation>高亮所选文字（在摘要中用 Shift+方向键选择）：先按 h 再按 1–5 选颜色（h h 为黄色），或直接按 Shift+1…5</translation>
    </message>
    <message>
        <source>move the selected papers to the trash (undoable); in the Trash: delete them for good (asks)</source>
        <translation>将所选论文移到回收站（可撤销）；在回收站中：永久删除（会先询问）</translation>
    </message>
    <message>
        <source>the trash: deleted papers</source>
        <translation>回收站：已删除的论文</translation>
    </message>
    <message>
        <source>in the Trash: restore the selected papers (undoable)</source>
        <translation>在回收站中：恢复所选论文（可撤销）</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <source>Sidebar</source>
        <translation>侧边栏</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>文库</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Reading lists</source>
        <translation>阅读列表</translation>
    </message>
    <message>
        <source>Saved searches</source>
        <translation>已保存的搜索</translation>
    </message>
    <message>
        <source>All papers  ({0})</source>
        <translation>全部论文  ({0})</translation>
    </message>
    <message>
        <source>No lists yet (Ctrl+Shift+L)</source>
        <translation>尚无列表 (Ctrl+Shift+L)</translation>
    </message>
    <message>
        <source>No tags yet (press t)</source>
        <translation>尚无标签（按 t）</translation>
    </message>
    <message>
        <source>tag:{0} — includes its children</source>
        <translation>tag:{0} — 包括其子标签</translation>
    </message>
    <message>
        <source>Show papers with this tag</source>
        <translation>显示带此标签的论文</translation>
    </message>
    <message>
        <source>Hide papers with this tag</source>
        <translation>隐藏带此标签的论文</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Set color…</source>
        <translation>设置颜色…</translation>
    </message>
    <message>
        <source>Merge into…</source>
        <translation>合并到…</translation>
    </message>
    <message>
        <source>Delete tag</source>
        <translation>删除标签</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Edit description…</source>
        <translation>编辑说明…</translation>
    </message>
    <message>
        <source>Delete list</source>
        <translation>删除列表</translation>
    </message>
    <message>
        <source>Save as reading list (snapshot)</source>
        <translation>另存为阅读列表（快照）</translation>
    </message>
    <message>
        <source>Delete saved search</source>
        <translation>删除已保存的搜索</translation>
    </message>
    <message>
        <source>New reading list…</source>
        <translation>新建阅读列表…</translation>
    </message>
    <message>
        <source>Deleted papers, until they are restored or deleted for good (Ctrl+3)</source>
        <translation>已删除的论文，直到被恢复或永久删除（Ctrl+3）</translation>
    </message>
    <message>
        <source>Trash  ({0})</source>
        <translation>回收站  ({0})</translation>
    </message>
    <message>
        <source>Show the trash</source>
        <translation>显示回收站</translation>
    </message>
    <message>
        <source>Empty trash…</source>
        <translation>清空回收站…</translation>
    </message>
</context>
<context>
    <name>SidebarPane</name>
    <message>
        <source>Filter tags</source>
        <translation>筛选标签</translation>
    </message>
    <message>
        <source>Filter tags…</source>
        <translation>筛选标签…</translation>
    </message>
    <message>
        <source>Show only the tags containing this text (type in the sidebar to start)</source>
        <translation>仅显示包含此文本的标签（在侧栏中直接输入即可开始）</translation>
    </message>
</context>
<context>
    <name>SimilarWork</name>
    <message>
        <source>Related papers are not available: {0}</source>
        <translation>无法获取相关论文：{0}</translation>
    </message>
    <message>
        <source>Showing all papers: the related paper was not in the view you had</source>
        <translation>正在显示全部论文：该相关论文不在之前的视图中</translation>
    </message>
</context>
<context>
    <name>StatisticsDialog</name>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Papers by tag (top 20)</source>
        <translation>按标签统计论文（前 20）</translation>
    </message>
    <message>
        <source>Papers by venue (top 20)</source>
        <translation>按发表处统计论文（前 20）</translation>
    </message>
    <message>
        <source>Papers by year</source>
        <translation>按年份统计论文</translation>
    </message>
    <message>
        <source>Ratings</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>另存为 PNG…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>正在统计…</translation>
    </message>
    <message>
        <source>The statistics could not be counted: {0}</source>
        <translation>无法完成统计：{0}</translation>
    </message>
    <message>
        <source>{0} papers: {1} read, {2} skimmed, {3} unread. {4} rated, {5} tagged, {6} with notes, {7} highlights.</source>
        <translation>共 {0} 篇论文：已读 {1}，略读 {2}，未读 {3}。已评分 {4}，有标签 {5}，有笔记 {6}，高亮 {7} 处。</translation>
    </message>
    <message>
        <source>unrated</source>
        <translation>未评分</translation>
    </message>
    <message>
        <source>Save statistics as PNG</source>
        <translation>将统计另存为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Could not write {0}</source>
        <translation>无法写入 {0}</translation>
    </message>
</context>
<context>
    <name>StatusControl</name>
    <message>
        <source>Reading status</source>
        <translation>阅读状态</translation>
    </message>
    <message>
        <source>Mark as {0} (key {1})</source>
        <translation>标记为{0}（按键 {1}）</translation>
    </message>
</context>
<context>
    <name>SuggestionChips</name>
    <message>
        <source>Suggested:</source>
        <translation>建议：</translation>
    </message>
    <message>
        <source>Add suggested tag {0}</source>
        <translation>添加建议标签 {0}</translation>
    </message>
    <message>
        <source>Add the tag “{0}” (suggested from {1})</source>
        <translation>添加标签“{0}”（根据{1}建议）</translation>
    </message>
    <message>
        <source>similar papers</source>
        <translation>相似论文</translation>
    </message>
    <message>
        <source>its key terms</source>
        <translation>其关键词</translation>
    </message>
    <message>
        <source>similar papers and its key terms</source>
        <translation>相似论文及其关键词</translation>
    </message>
</context>
<context>
    <name>TagEditor</name>
    <message>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <source>Add tag…  (Enter; a/b for a child tag)</source>
        <translation>添加标签…（回车确认；a/b 表示子标签）</translation>
    </message>
    <message>
        <source>Tag {0}; press to remove</source>
        <translation>标签 {0}；点击移除</translation>
    </message>
    <message>
        <source>Remove tag “{0}”</source>
        <translation>移除标签“{0}”</translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
</context>
<context>
    <name>TitleEdit</name>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
</context>
<context>
    <name>TopicsDialog</name>
    <message>
        <source>Topics</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Topics:</source>
        <translation>主题数：</translation>
    </message>
    <message>
        <source>chosen by Marginalia</source>
        <translation>由 Marginalia 选择</translation>
    </message>
    <message>
        <source>Number of topics</source>
        <translation>主题数量</translation>
    </message>
    <message>
        <source>&amp;Recompute</source>
        <translation>重新计算(&amp;R)</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Distinctive words</source>
        <translation>特征词</translation>
    </message>
    <message>
        <source>Papers</source>
        <translation>论文</translation>
    </message>
    <message>
        <source>&amp;Keep its undecided…</source>
        <translation>保留其中未决定的(&amp;K)…</translation>
    </message>
    <message>
        <source>&amp;Maybe its undecided…</source>
        <translation>将其中未决定的设为待定(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Skip its undecided…</source>
        <translation>跳过其中未决定的(&amp;S)…</translation>
    </message>
    <message>
        <source>Save as &amp;tag…</source>
        <translation>存为标签(&amp;T)…</translation>
    </message>
    <message>
        <source>Show its &amp;papers</source>
        <translation>显示其论文(&amp;P)</translation>
    </message>
    <message>
        <source>Finding the topics of {0}…</source>
        <translation>正在查找{0}的主题…</translation>
    </message>
    <message>
        <source>No topics: {0}</source>
        <translation>没有主题：{0}</translation>
    </message>
    <message>
        <source>{0} topics in {1}</source>
        <translation>{1}中有 {0} 个主题</translation>
    </message>
    <message>
        <source> (the number chosen by Marginalia; set one on the right)</source>
        <translation>（数量由 Marginalia 选择；可在右侧设定）</translation>
    </message>
    <message>
        <source>No topics here</source>
        <translation>这里没有主题</translation>
    </message>
    <message>
        <source>Every paper of “{0}” is decided already</source>
        <translation>“{0}”中的每篇论文都已决定</translation>
    </message>
    <message>
        <source>Decide a topic</source>
        <translation>决定一个主题</translation>
    </message>
    <message>
        <source>Decide {0} of “{1}” {2}? Papers decided before keep their decision; Ctrl+Z undoes it.</source>
        <translation>将“{1}”中的{0}决定为“{2}”？之前已决定的论文保持原决定；按 Ctrl+Z 可撤销。</translation>
    </message>
    <message>
        <source>Save topic as tag</source>
        <translation>将主题存为标签</translation>
    </message>
    <message>
        <source>Tag (under topics/):</source>
        <translation>标签（位于 topics/ 下）：</translation>
    </message>
    <message>
        <source>T&amp;riage the chosen topics</source>
        <translation>分拣所选主题(&amp;R)</translation>
    </message>
    <message>
        <source>Walk only the papers of the selected topics (Ctrl+click chooses several), most likely keeps first</source>
        <translation>只浏览所选主题中的论文（Ctrl+单击可多选），最可能保留的在前</translation>
    </message>
    <message>
        <source>Re&amp;name…</source>
        <translation>重命名(&amp;N)…</translation>
    </message>
    <message>
        <source>Give the topic a name of your own (F2); kept for this session</source>
        <translation>为主题取一个自己的名字 (F2)；本次会话内保留</translation>
    </message>
    <message>
        <source>On the m&amp;ap</source>
        <translation>在地图上(&amp;A)</translation>
    </message>
    <message>
        <source>Show these topics&apos; papers as a map</source>
        <translation>以地图显示这些主题的论文</translation>
    </message>
    <message>
        <source>F2 or a double-click renames the topic</source>
        <translation>按 F2 或双击可重命名主题</translation>
    </message>
    <message>
        <source>Not renamed: {0}</source>
        <translation>未重命名：{0}</translation>
    </message>
</context>
<context>
    <name>TrashBar</name>
    <message>
        <source>Deleted papers wait here, also after a restart, until you restore them or delete them for good.</source>
        <translation>已删除的论文保留在这里（重启后仍在），直到您恢复或永久删除它们。</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>Put the selected papers back in the library (Ctrl+Shift+R; undoable)</source>
        <translation>将所选论文放回文献库（Ctrl+Shift+R；可撤销）</translation>
    </message>
    <message>
        <source>&amp;Delete for good…</source>
        <translation>永久删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Delete the selected papers and their files for good (Delete; asks first)</source>
        <translation>永久删除所选论文及其文件（Delete 键；会先询问）</translation>
    </message>
    <message>
        <source>E&amp;mpty trash…</source>
        <translation>清空回收站(&amp;M)…</translation>
    </message>
</context>
<context>
    <name>TrashController</name>
    <message>
        <source>&amp;Restore from trash</source>
        <translation>从回收站恢复(&amp;R)</translation>
    </message>
    <message>
        <source>Delete for &amp;good…</source>
        <translation>永久删除(&amp;G)…</translation>
    </message>
    <message>
        <source>Empty &amp;trash…</source>
        <translation>清空回收站(&amp;T)…</translation>
    </message>
    <message>
        <source>Marginalia</source>
        <translation>Marginalia</translation>
    </message>
    <message numerus="yes">
        <source>Restored %n paper(s) from the trash</source>
        <translation>
            <numerusform>已从回收站恢复 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete for good</source>
        <translation>永久删除</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n paper(s) for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</source>
        <translation>
            <numerusform>永久删除 %n 篇论文？它们的标签、笔记、高亮和附件文件将一并删除。此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>The trash is empty</source>
        <translation>回收站是空的</translation>
    </message>
    <message>
        <source>Empty trash</source>
        <translation>清空回收站</translation>
    </message>
    <message numerus="yes">
        <source>Delete all %n paper(s) in the trash for good? Their tags, notes, highlights and attached files go with them. This cannot be undone.</source>
        <translation>
            <numerusform>永久删除回收站中的全部 %n 篇论文？它们的标签、笔记、高亮和附件文件将一并删除。此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n paper(s) for good</source>
        <translation>
            <numerusform>已永久删除 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Restore {0} papers</source>
        <translation>恢复 {0} 篇论文</translation>
    </message>
    <message>
        <source>Delete for good…</source>
        <translation>永久删除…</translation>
    </message>
    <message>
        <source>Delete {0} papers for good…</source>
        <translation>永久删除 {0} 篇论文…</translation>
    </message>
    <message>
        <source>Empty trash…</source>
        <translation>清空回收站…</translation>
    </message>
    <message>
        <source>A paper in the trash: restore it to edit it.</source>
        <translation>回收站中的论文：恢复后才能编辑。</translation>
    </message>
</context>
<context>
    <name>TriageView</name>
    <message>
        <source>Leave triage (Esc)</source>
        <translation>退出分拣（Esc）</translation>
    </message>
    <message>
        <source>Quick tags…</source>
        <translation>快捷标签…</translation>
    </message>
    <message>
        <source>Add tag…  (t; Enter adds it, Esc goes back)</source>
        <translation>添加标签…（t；回车添加，Esc 返回）</translation>
    </message>
    <message>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>No papers to triage here: choose a filter with papers first</source>
        <translation>这里没有可分拣的论文：请先选择包含论文的筛选条件</translation>
    </message>
    <message>
        <source>Nothing left to triage in this list</source>
        <translation>此列表中已没有待分拣的论文</translation>
    </message>
    <message>
        <source>Paper {0} of {1}</source>
        <translation>第 {0} 篇，共 {1} 篇</translation>
    </message>
    <message>
        <source>This is the last paper of the list</source>
        <translation>这是列表中的最后一篇论文</translation>
    </message>
    <message>
        <source>{0} of {1} triaged; {2} today</source>
        <translation>已分拣 {0} / {1}；今天 {2} 篇</translation>
    </message>
    <message>
        <source>Already tagged “{0}”</source>
        <translation>已有标签“{0}”</translation>
    </message>
    <message>
        <source>Quick tag</source>
        <translation>快捷标签</translation>
    </message>
    <message>
        <source>Tag for Alt+{0}:</source>
        <translation>Alt+{0} 的标签：</translation>
    </message>
    <message>
        <source>Alt+{0}: {1}</source>
        <translation>Alt+{0}：{1}</translation>
    </message>
    <message>
        <source>Alt+{0}: (free)</source>
        <translation>Alt+{0}：（空闲）</translation>
    </message>
    <message>
        <source>Alt+{0} {1}</source>
        <translation>Alt+{0} {1}</translation>
    </message>
    <message>
        <source>Quick tags: {0}</source>
        <translation>快捷标签：{0}</translation>
    </message>
    <message>
        <source>Most likely keeps first (o)</source>
        <translation>最可能保留的在前（o）</translation>
    </message>
    <message>
        <source>Order the undecided papers by what your keeps and skips taught; off: the list&apos;s own order</source>
        <translation>按你的保留和跳过所学到的内容排列未决定的论文；关闭时按列表自身顺序</translation>
    </message>
    <message>
        <source>Here because of: {0}</source>
        <translation>排在这里是因为：{0}</translation>
    </message>
    <message>
        <source>Colour “{0}” as an include word</source>
        <translation>将“{0}”标为纳入词</translation>
    </message>
    <message>
        <source>Colour “{0}” as an exclude word</source>
        <translation>将“{0}”标为排除词</translation>
    </message>
    <message>
        <source>{0} of {1} decided</source>
        <translation>已决定 {0} / {1}</translation>
    </message>
    <message>
        <source>about {0} h {1} min left at your pace of the last {2}</source>
        <translation>按最近 {2} 篇的速度，约剩 {0} 小时 {1} 分钟</translation>
    </message>
    <message>
        <source>about {0} min left at your pace of the last {1}</source>
        <translation>按最近 {1} 篇的速度，约剩 {0} 分钟</translation>
    </message>
    <message>
        <source>about {0} likely keeps remain</source>
        <translation>约剩 {0} 篇可能保留的论文</translation>
    </message>
    <message>
        <source>list order until there is at least one keep and one skip</source>
        <translation>至少有一篇保留和一篇跳过之前按列表顺序</translation>
    </message>
    <message>
        <source>list order</source>
        <translation>列表顺序</translation>
    </message>
    <message>
        <source>{0} near-duplicate(s) of the paper you just decided: press d to decide them {1} too</source>
        <translation>刚决定的论文有 {0} 篇近似重复：按 d 将它们也决定为“{1}”</translation>
    </message>
    <message>
        <source>✓ {0}</source>
        <translation>✓ {0}</translation>
    </message>
    <message>
        <source>Marked {0}</source>
        <translation>已标记为{0}</translation>
    </message>
    <message>
        <source>Rated {0}</source>
        <translation>已评为 {0} 分</translation>
    </message>
    <message>
        <source>{0} keep · {1} maybe · {2} skip · o learned order · e emphasis · u unread · s skimmed · r read · 0–5 rate · t tag · n note · Space, j or → next · k or ← previous · Esc leave</source>
        <translation>{0} 保留 · {1} 待定 · {2} 跳过 · o 学习顺序 · e 强调 · u 未读 · s 略读 · r 已读 · 0–5 评分 · t 标签 · n 笔记 · 空格、j 或 → 下一篇 · k 或 ← 上一篇 · Esc 退出</translation>
    </message>
    <message>
        <source>Papers in the trash are not triaged: restore them first (Ctrl+Shift+R)</source>
        <translation>回收站中的论文不参与分拣：请先恢复（Ctrl+Shift+R）</translation>
    </message>
</context>
<context>
    <name>UndoImport</name>
    <message>
        <source>Undo import</source>
        <translation>撤销导入</translation>
    </message>
</context>
<context>
    <name>UndoToast</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Undo the last bulk edit</source>
        <translation>撤销上次批量编辑</translation>
    </message>
</context>
<context>
    <name>WelcomePanel</name>
    <message>
        <source>Welcome to Marginalia</source>
        <translation>欢迎使用 Marginalia</translation>
    </message>
    <message>
        <source>Your library is empty. Bring in a conference&apos;s abstracts, a BibTeX file,
an RIS, PubMed, CSL-JSON, arXiv or CSV export — or start with the sample.
You can also drop files on this window.</source>
        <translation>文库还是空的。可以导入会议摘要、BibTeX 文件，
或 RIS、PubMed、CSL-JSON、arXiv、CSV 导出文件 — 也可以从示例开始。
还可以把文件拖放到此窗口。</translation>
    </message>
    <message>
        <source>Import files…</source>
        <translation>导入文件…</translation>
    </message>
    <message>
        <source>Open the NeurIPS 2026 sample ({0} abstracts)</source>
        <translation>打开 NeurIPS 2026 示例（{0} 篇摘要）</translation>
    </message>
</context>
<context>
    <name>WriteProgress</name>
    <message>
        <source>Applying “{0}”…</source>
        <translation>正在执行“{0}”…</translation>
    </message>
</context>
</TS>
