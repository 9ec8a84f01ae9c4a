# 会话自己在错误横幅中写的话（src/ui/session.rs）。智能体名称不翻译；
# { $why } 和 { $error } 是底层错误自身的文字。

session-fix-settings = { $why }；请先在“设置”中修正（没有启动任何东西）
session-busy = 有一次运行正在进行：请等它结束，或按“停止”
session-file-no-prompt = 协议文件的团队没有给领导的提示
session-sender-gone = { $name } 已经关机，不能再发送消息
session-settings-not-used = 未使用已保存运行的设置：{ $error }。显示的是它的轨迹；设置没有改变
session-not-restored = 无法恢复重新加载之前的运行：{ $error }

## 模型提供方（菜单和标题下的一行）
provider-scripted = 脚本模型（离线）
provider-anthropic = Anthropic（你的密钥）
provider-openai = OpenAI 兼容（基础 URL）
provider-unknown = 未知的提供方
session-also = { $first } —— 另外：{ $later }
