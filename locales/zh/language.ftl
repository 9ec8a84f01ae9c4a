# 加载某种语言的消息（src/ui/i18n_view.rs）：无法获取时横幅显示的文字。
# { $language } 和 { $current } 是各语言自己的名称（English、中文、日本語、Italiano）。

lang-unavailable = 无法加载{ $language }（{ $error }），页面仍使用{ $current }。
lang-error-status = 服务器返回 { $status }
lang-error-network = 网络请求失败
lang-error-timeout = { $seconds } 秒内没有响应
lang-error-empty = 文件 { $file } 中没有消息
