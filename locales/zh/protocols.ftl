# 协议视图（src/ui/protocols.rs，src/view/protocol_file）。键名、名称、消息类型、
# 工具名、`request_id`、`pending`、`approved`、`rejected` 不翻译；
# { $detail }、{ $known }、{ $error } 来自下层，为英文。

## 文件错误（未列出的种类保留加载器的英文句子）
pf-too-large = 文件有 { $bytes } 字节；编辑器只检查不超过 { $max } 字节的文件：请缩小文件
pf-error-syntax = 这不是有效的 TOML：{ $detail }
pf-error-unknown-key = 未知的键 '{ $key }'；这里可用的键是：{ $known }
pf-error-missing-key = 缺少 '{ $key }'：请补上
pf-error-wrong-type = 这里应为 { $expected }，实际是 { $found }
pf-error-no-format = 文件没有声明格式：在第一行加上 `format = 1`
pf-error-format = 此版本不读取格式 { $format }：请写 `format = 1`
pf-error-bad-name = '{ $name }' 不是有效的名称：名称以小写字母开头，后面最多 31 个小写字母、数字或 '_'
pf-error-duplicate = 名称 '{ $name }' 用了两次（第一次在第 { $line } 行）；请给每一项各自的名称
pf-error-unknown = 没有名为 '{ $name }' 的项；可用的名称是：{ $known }

## 视图
ui-protocols = 协议
ui-protocols-title = 协议文件
ui-protocols-close = 关闭协议文件
ui-key-protocols = 打开或关闭协议文件
ui-pf-lesson = 课程的协议
ui-pf-teams = 内置团队
ui-pf-examples = 示例
ui-pf-mine = 你的文件
ui-pf-none = 还没有你自己的文件。
ui-pf-new = 新建文件
ui-pf-new-name = 新协议
ui-pf-copy-name = { $name }（副本）
ui-pf-edit-copy = 编辑副本
ui-pf-show = 查看
ui-pf-open = 编辑
ui-pf-delete = 删除
ui-pf-delete-named = 删除 { $name }
ui-pf-deleted = 已删除 { $name }。
ui-pf-undo = 撤销
ui-pf-name = 文件名
ui-pf-read-only = 内置，只读：编辑副本才能修改。
ui-pf-text = 文件内容
ui-pf-saved = 已保存在此浏览器中。
ui-pf-errors = { $count } 个错误
ui-pf-loads = 文件可以加载。
ui-pf-at = 第 { $line } 行，第 { $column } 列
ui-pf-whole-file = （整个文件）
ui-pf-english-note = 部分句子以英文显示。
ui-pf-previews = 预览
ui-pf-fsm = 状态机 (FSM)
ui-pf-tracker = tracker (跟踪表)
ui-pf-tools-lead = 领导的工具
ui-pf-tools-teammate = 队友的工具
ui-pf-no-tools = 无
ui-pf-config = 团队名单 (config.json)
ui-pf-no-team = 文件中没有团队。
ui-pf-store-damaged = 无法读取已保存的协议文件（{ $error }）；它们已另存到 { $key }，其他内容未改动。
ui-pf-store-write = 浏览器拒绝保存文件（{ $error }）。
ui-pf-pick = 选择一个文件，在这里查看。
ui-pf-run = 运行团队
ui-pf-adopted = { $name } 随屏幕上的运行而来，已加入你的文件。
pf-run-unchecked = 正在检查文件。
pf-run-errors = 修正下面的 { $count } 个错误后才能运行团队。
pf-run-no-team = 文件没有可运行的 [team]：请添加一个（见模板）。
pf-run-no-prompt = 团队没有给领导的提示：请在 prompts 中添加一个。
ui-pf-explore = 探索团队
