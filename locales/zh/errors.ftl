# 页面自己的错误（src/ui/error_words.rs）：分享链接、浏览器存储、导入的文件、下载、已保存的运行。
# 字段名、事件类型、场景 ID 以及错误从底层带来的内容（{ $error }、{ $detail }、{ $problem }、
# { $expected }、{ $found }）不翻译。

## 分享链接
error-link-encoding = 链接已损坏（不是 base64url 文本）；请复制完整的链接
error-link-compression = 无法解开链接中的轨迹（它不是 deflate 数据）；请复制完整的链接
error-link-too-big = 无法解开链接中的轨迹：它超过了 { $limit } MB，比任何链接能携带的轨迹都大
error-link-not-text = 无法解开链接中的轨迹：它不是文本
error-link-seed = 链接中的种子“{ $seed }”不是 0 到 18446744073709551615 之间的整数
error-link-trace = 链接中的轨迹无效：{ $error }
error-link-faults = 链接中的故障规则无效：{ $error }
error-link-budget = 链接中的预算无效：{ $error }
error-link-too-long = 这次运行太大，无法用链接分享（{ $count } 个字符）；请改为导出 JSON
error-share-running = 运行结束后会出现分享链接。
error-share-empty = 运行过一次之后会出现分享链接。
error-share-no-address = 无法读取页面的地址，因此无法生成链接。

## 浏览器存储
error-storage-unavailable = 这里无法使用浏览器存储；请把轨迹导出为 JSON 来保存
error-storage-write = 浏览器存储拒绝保存这次运行（{ $error }）：请删除一些已保存的运行，或把轨迹导出为 JSON
error-storage-corrupt = 无法读取一条已保存的运行（{ $error }）；它保持原样
error-storage-list = 已保存运行的列表已损坏（{ $error }）；请用“清除已保存的运行”重新开始一个列表
error-storage-key = 浏览器存储拒绝更改记住的密钥（{ $error }）；本标签页仍在使用该密钥
error-storage-gone = 这条已保存的运行已不在存储中（可能被另一个标签页删除了）

## 下载和已保存的运行
error-download = 浏览器无法准备这个文件（{ $error }）
error-snapshot-faults = 一条故障规则无效：{ $error }
error-snapshot-scenario = 这个版本没有场景“{ $id }”
error-snapshot-prompts = 这次运行有 { $count } 条提示词；最多保留 { $limit } 条

## 导入的 trace
error-import-event = 事件 { $entry }
error-import-the-trace = 该轨迹
error-import-too-large = 文件大小为 { $size } MiB，超过了 { $cap } MiB 的导入上限
error-import-empty = 文件是空的；需要一个导出为 JSON 的轨迹
error-import-not-json = 文件不是有效的 JSON：第 { $line } 行第 { $column } 列，{ $detail }
error-import-not-trace = 文件是 JSON，但不是轨迹：需要一个包含 version、team_name、seed 和 entries 的对象，实际是 { $found }
error-import-no-version = 文件没有 "version" 字段，所以不是导出的轨迹；这个版本读取轨迹格式版本 { $versions }
error-import-version = 不支持轨迹格式版本 { $found }；这个版本读取版本 { $versions }
error-import-missing-field = { $place }缺少必需的字段“{ $field }”
error-import-bad-field = { $place }的字段“{ $field }”无效：{ $problem }
error-import-kind = 事件 { $entry } 的类型“{ $kind }”未知；{ $expected }
error-import-sequence = 位置 { $index } 的事件编号为 { $seq }；事件必须按 0、1、2……的顺序编号
error-import-time = 事件 { $seq } 发生在 { $at }，早于前一个事件的 { $previous }；时间不能倒流
error-import-protocol = 事件 { $seq } 违反了协议规则：{ $error }
error-import-recorded-file = 这个轨迹记录的协议文件“{ $name }”无法加载：第 { $line } 行，第 { $column } 列：{ $error }
error-import-different-file = 这个轨迹运行时使用的是 { $recorded }（{ $summary }）；现在加载的文件与它不同：{ $difference }
